//! The master key (the key-encryption key) as the operator keeps it: 32 random bytes, base64, in
//! a file (`CLICKWRAP_MASTER_KEY_FILE`) or an environment variable (`CLICKWRAP_MASTER_KEY`).

use std::io::Write;
use std::path::Path;

use base64ct::{Base64, Encoding};
use clickwrap_domain::keys::master::MasterKey;
use clickwrap_domain::ports::Random;
use clickwrap_domain::system::OsRandom;

/// The file `clickwrap-server demo` keeps its master key in when none is configured: in the
/// working directory, where the demo is run from, or next to the data of its private PostgreSQL.
pub(crate) const DEMO_KEY_FILE: &str = "clickwrap-demo-master.key";

/// Why a master key could not be read; never repeats the key.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub(crate) enum MasterKeyError {
    #[error("cannot read {path}: {reason}")]
    Read { path: String, reason: String },
    #[error("must be 32 random bytes, base64 (make one with `clickwrap-server master-key generate`)")]
    Malformed,
    #[error("cannot write {path}: {reason}")]
    Write { path: String, reason: String },
}

/// A master key from its base64 text (surrounding whitespace ignored).
pub(crate) fn parse(text: &str) -> Result<MasterKey, MasterKeyError> {
    let bytes = Base64::decode_vec(text.trim()).map_err(|_| MasterKeyError::Malformed)?;
    let material: [u8; 32] = bytes.try_into().map_err(|_| MasterKeyError::Malformed)?;
    Ok(MasterKey::from_bytes(material))
}

pub(crate) fn read_file(path: &Path) -> Result<MasterKey, MasterKeyError> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| MasterKeyError::Read { path: path.display().to_string(), reason: e.to_string() })?;
    parse(&text)
}

/// A new random master key.
pub(crate) fn generate() -> MasterKey {
    MasterKey::from_bytes(OsRandom::default().bytes32())
}

/// The key's text as it is kept: base64 and a newline.
pub(crate) fn encode(key: &MasterKey) -> String {
    format!("{}\n", Base64::encode_string(key.material()))
}

/// Writes a new key to `path`, readable by its owner only; never overwrites a file.
pub(crate) fn write_new_file(path: &Path, key: &MasterKey) -> Result<(), MasterKeyError> {
    let failed = |e: std::io::Error| MasterKeyError::Write { path: path.display().to_string(), reason: e.to_string() };
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    let mut file = options.open(path).map_err(failed)?;
    file.write_all(encode(key).as_bytes()).map_err(failed)?;
    file.sync_all().map_err(failed)
}

/// The demo's key: read from `path`, or made there on the first run (true when made).
///
/// Demos started at the same moment in one directory must end up with one key (each would seal
/// the demo's secrets with its own otherwise): the key is written whole under a name of its own,
/// then linked into place, which only one of them can do; the others read that one.
pub(crate) fn demo_key(path: &Path) -> Result<(MasterKey, bool), MasterKeyError> {
    if path.exists() {
        return read_file(path).map(|key| (key, false));
    }
    let key = generate();
    let own = path.with_extension(format!("{}.new", uuid::Uuid::new_v4().simple()));
    write_new_file(&own, &key)?;
    let linked = std::fs::hard_link(&own, path);
    let _ = std::fs::remove_file(&own);
    match linked {
        Ok(()) => Ok((key, true)),
        Err(error) if error.kind() == std::io::ErrorKind::AlreadyExists => read_file(path).map(|key| (key, false)),
        Err(error) => Err(MasterKeyError::Write { path: path.display().to_string(), reason: error.to_string() }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_key_round_trips_through_its_text() {
        let key = generate();
        let again = parse(&encode(&key)).unwrap();
        assert_eq!(again.id(), key.id());
        assert_eq!(again.material(), key.material());
        assert_eq!(encode(&key).trim().len(), 44, "32 bytes are 44 base64 characters");
    }

    #[test]
    fn anything_but_32_bytes_of_base64_is_refused() {
        for bad in ["", "not base64!", "AAAA", &Base64::encode_string(&[1; 31]), &Base64::encode_string(&[1; 33])] {
            assert_eq!(parse(bad).unwrap_err(), MasterKeyError::Malformed, "{bad}");
        }
        assert!(parse(&format!("  {}\n", Base64::encode_string(&[1; 32]))).is_ok());
    }

    #[test]
    fn a_new_key_file_is_private_and_never_overwritten() {
        let dir = std::env::temp_dir().join(format!("clickwrap-master-key-{}", uuid::Uuid::now_v7()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("master.key");
        let key = generate();
        write_new_file(&path, &key).unwrap();
        assert_eq!(read_file(&path).unwrap().id(), key.id());
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            assert_eq!(std::fs::metadata(&path).unwrap().permissions().mode() & 0o777, 0o600);
        }
        assert!(matches!(write_new_file(&path, &generate()), Err(MasterKeyError::Write { .. })));
        assert_eq!(read_file(&path).unwrap().id(), key.id(), "the first key is kept");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn demos_started_at_the_same_moment_share_one_key() {
        let dir = std::env::temp_dir().join(format!("clickwrap-demo-key-{}", uuid::Uuid::now_v7()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join(DEMO_KEY_FILE);
        let starts: Vec<_> = (0..8)
            .map(|_| {
                let path = path.clone();
                std::thread::spawn(move || demo_key(&path).unwrap())
            })
            .collect();
        let keys: Vec<(MasterKey, bool)> = starts.into_iter().map(|start| start.join().unwrap()).collect();
        assert_eq!(keys.iter().filter(|(_, made)| *made).count(), 1, "one made it, the others read it");
        let kept = read_file(&path).unwrap();
        assert!(keys.iter().all(|(key, _)| key.id() == kept.id()));
        assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 1, "no partial files are left behind");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
