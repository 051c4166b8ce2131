//! Fingerprints the SQL migrations, so test databases are rebuilt whenever a migration changes.

use std::fs;
use std::path::Path;

fn main() {
    // Read when the script runs, not baked in when it was compiled: a target directory copied to
    // another checkout must fingerprint that checkout's migrations.
    let manifest_dir = std::env::var("CARGO_MANIFEST_DIR").unwrap_or_else(|_| ".".to_owned());
    let dir = Path::new(&manifest_dir).join("../../migrations");
    // Relative paths are taken from the package's folder, so they stay true in a copied target.
    println!("cargo:rerun-if-changed=../../migrations");
    let mut files = Vec::new();
    collect(&dir, &mut files);
    files.sort();
    // FNV-1a: not for security, only to notice a change.
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for path in files {
        let name = path.strip_prefix(&dir).unwrap_or(&path).to_string_lossy().into_owned();
        println!("cargo:rerun-if-changed=../../migrations/{name}");
        let bytes = fs::read(&path).unwrap_or_default();
        // The path relative to the migrations folder: the same migrations give the same digest
        // wherever the checkout is.
        for byte in name.bytes().chain(bytes) {
            hash ^= u64::from(byte);
            hash = hash.wrapping_mul(0x0100_0000_01b3);
        }
    }
    println!("cargo:rustc-env=CLICKWRAP_MIGRATIONS_DIGEST={hash:016x}");
}

fn collect(dir: &Path, files: &mut Vec<std::path::PathBuf>) {
    let Ok(entries) = fs::read_dir(dir) else { return };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            collect(&path, files);
        } else if path.extension().is_some_and(|e| e == "sql") {
            files.push(path);
        }
    }
}
