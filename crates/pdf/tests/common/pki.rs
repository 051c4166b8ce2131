//! A throwaway public-key infrastructure made with the `openssl` command line, an independent
//! producer of what operators bring: a root CA, an intermediate CA, an ECDSA P-256 and an RSA leaf
//! issued by the intermediate, their PKCS#12 files, and a time-stamping authority (`openssl ts`)
//! whose certificate the root issued.

#![allow(dead_code, clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use async_trait::async_trait;
use clickwrap_pdf::{TimestampAuthority, TimestampError, TimestampRequest};

use super::{out_dir, run};

pub(crate) const PKCS12_PASSWORD: &str = "correct horse battery staple";

#[derive(Debug)]
pub(crate) struct Pki {
    pub(crate) dir: PathBuf,
}

impl Pki {
    /// Makes the whole hierarchy in a fresh directory.
    pub(crate) fn new() -> Pki {
        let dir = out_dir().join(format!("pki-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let pki = Pki { dir };
        std::fs::write(
            pki.path("extensions.cnf"),
            "[ca]\nbasicConstraints = critical, CA:TRUE\nkeyUsage = critical, keyCertSign, cRLSign\n\
             [leaf]\nbasicConstraints = critical, CA:FALSE\nkeyUsage = critical, digitalSignature, nonRepudiation\n\
             [tsa]\nbasicConstraints = critical, CA:FALSE\nkeyUsage = critical, digitalSignature\n\
             extendedKeyUsage = critical, timeStamping\n",
        )
        .unwrap();
        pki.openssl(&[
            "req",
            "-x509",
            "-new",
            "-newkey",
            "ec",
            "-pkeyopt",
            "ec_paramgen_curve:P-256",
            "-nodes",
            "-keyout",
            "root.key",
            "-out",
            "root.pem",
            "-days",
            "3650",
            "-subj",
            "/O=Clickwrap tests/CN=Test Root CA",
            "-addext",
            "basicConstraints=critical,CA:TRUE",
            "-addext",
            "keyUsage=critical,keyCertSign,cRLSign",
        ]);
        pki.issue("intermediate", "Test Intermediate CA", "ec", "root", "ca");
        pki.issue("leaf", "Acme Consent Signing", "ec", "intermediate", "leaf");
        pki.issue("rsa-leaf", "Acme Consent Signing RSA", "rsa", "intermediate", "leaf");
        pki.issue("tsa", "Test Time-Stamping Authority", "ec", "root", "tsa");
        pki.concat("chain.pem", &["intermediate.pem", "root.pem"]);
        // OpenSSL 3's defaults: PBES2 with AES-256-CBC and PBKDF2, SHA-256 MAC.
        for leaf in ["leaf", "rsa-leaf"] {
            pki.openssl(&[
                "pkcs12",
                "-export",
                "-inkey",
                &format!("{leaf}.key"),
                "-in",
                &format!("{leaf}.pem"),
                "-certfile",
                "chain.pem",
                "-out",
                &format!("{leaf}.p12"),
                "-passout",
                &format!("pass:{PKCS12_PASSWORD}"),
            ]);
        }
        // The older format still met in the field: 3DES (RC2 where OpenSSL still has it), SHA-1 MAC.
        pki.openssl(&[
            "pkcs12",
            "-export",
            "-legacy",
            "-inkey",
            "leaf.key",
            "-in",
            "leaf.pem",
            "-certfile",
            "chain.pem",
            "-out",
            "leaf-legacy.p12",
            "-passout",
            &format!("pass:{PKCS12_PASSWORD}"),
        ]);
        // The same keys in the older PEM forms: SEC1 `EC PRIVATE KEY`, PKCS#1 `RSA PRIVATE KEY`.
        pki.openssl(&["ec", "-in", "leaf.key", "-out", "leaf-sec1.key"]);
        pki.openssl(&["rsa", "-in", "rsa-leaf.key", "-traditional", "-out", "rsa-leaf-pkcs1.key"]);
        std::fs::write(pki.path("tsa-serial"), "01\n").unwrap();
        // A second authority configuration whose tokens carry four more certificates (an RSA one
        // among them): tokens of about 3.5 KB.
        pki.concat("tsa-bundle.pem", &["root.pem", "intermediate.pem", "rsa-leaf.pem", "leaf.pem"]);
        for (config, certs) in [("tsa.cnf", "root.pem"), ("tsa-large.cnf", "tsa-bundle.pem")] {
            std::fs::write(
            pki.path(config),
            format!(
                "[tsa]\ndefault_tsa = tsa_config\n[tsa_config]\nserial = {dir}/tsa-serial\ncrypto_device = builtin\n\
                 signer_cert = {dir}/tsa.pem\ncerts = {dir}/{certs}\nsigner_key = {dir}/tsa.key\n\
                 signer_digest = sha256\ndefault_policy = 1.3.6.1.4.1.99999.1\ndigests = sha256\n\
                 accuracy = secs:1\nordering = no\ntsa_name = yes\ness_cert_id_chain = no\ness_cert_id_alg = sha256\n",
                dir = pki.dir.display()
            ),
        )
        .unwrap();
        }
        pki
    }

    pub(crate) fn path(&self, name: &str) -> PathBuf {
        self.dir.join(name)
    }

    pub(crate) fn read(&self, name: &str) -> String {
        std::fs::read_to_string(self.path(name)).unwrap()
    }

    pub(crate) fn bytes(&self, name: &str) -> Vec<u8> {
        std::fs::read(self.path(name)).unwrap()
    }

    /// A key of `kind` (`ec` P-256 or `rsa` 2048) and a certificate for it issued by `issuer`.
    fn issue(&self, name: &str, common_name: &str, kind: &str, issuer: &str, extensions: &str) {
        let key_options: &[&str] = if kind == "ec" {
            &["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256"]
        } else {
            &["-newkey", "rsa:2048"]
        };
        let mut request = vec!["req", "-new"];
        request.extend_from_slice(key_options);
        let (key, csr, subject) = (format!("{name}.key"), format!("{name}.csr"), format!("/CN={common_name}"));
        request.extend_from_slice(&["-nodes", "-keyout", &key, "-out", &csr, "-subj", &subject]);
        self.openssl(&request);
        self.openssl(&[
            "x509",
            "-req",
            "-in",
            &csr,
            "-CA",
            &format!("{issuer}.pem"),
            "-CAkey",
            &format!("{issuer}.key"),
            "-CAcreateserial",
            "-days",
            "1825",
            "-sha256",
            "-extfile",
            "extensions.cnf",
            "-extensions",
            extensions,
            "-out",
            &format!("{name}.pem"),
        ]);
    }

    fn concat(&self, name: &str, parts: &[&str]) {
        let text: String = parts.iter().map(|part| self.read(part)).collect();
        std::fs::write(self.path(name), text).unwrap();
    }

    fn openssl(&self, args: &[&str]) {
        let output = std::process::Command::new("openssl").args(args).current_dir(&self.dir).output().unwrap();
        assert!(output.status.success(), "openssl {}: {}", args.join(" "), String::from_utf8_lossy(&output.stderr));
    }

    /// What `openssl ts -reply` answers to a DER `TimeStampReq`: a DER `TimeStampResp`.
    pub(crate) fn timestamp_reply(&self, request: &[u8]) -> Vec<u8> {
        self.timestamp_reply_with("tsa.cnf", request)
    }

    /// [`Pki::timestamp_reply`] with the authority configuration `config`.
    pub(crate) fn timestamp_reply_with(&self, config: &str, request: &[u8]) -> Vec<u8> {
        static NEXT: AtomicU64 = AtomicU64::new(0);
        let n = NEXT.fetch_add(1, Ordering::Relaxed);
        let query = self.path(&format!("query-{n}.tsq"));
        let reply = self.path(&format!("reply-{n}.tsr"));
        std::fs::write(&query, request).unwrap();
        let out = run(
            "openssl",
            &[
                "ts",
                "-reply",
                "-config",
                self.path(config).to_str().unwrap(),
                "-queryfile",
                query.to_str().unwrap(),
                "-out",
                reply.to_str().unwrap(),
            ],
        );
        assert_eq!(out.status, 0, "openssl ts -reply: {}", out.text);
        std::fs::read(reply).unwrap()
    }
}

/// A time-stamping authority that is `openssl ts -reply`, called in-process.
#[derive(Debug)]
pub(crate) struct OpensslTsa<'a>(pub(crate) &'a Pki);

#[async_trait]
impl TimestampAuthority for OpensslTsa<'static> {
    async fn timestamp(&self, message_imprint_sha256: [u8; 32]) -> Result<Vec<u8>, TimestampError> {
        let request = TimestampRequest::new(message_imprint_sha256)?;
        request.token_from_response(&self.0.timestamp_reply(request.der()))
    }
}

/// The same authority with tokens of about 3.5 KB (more certificates), counting its answers.
#[derive(Debug)]
pub(crate) struct LargeTokenTsa<'a>(pub(crate) &'a Pki, pub(crate) AtomicU64);

#[async_trait]
impl TimestampAuthority for LargeTokenTsa<'static> {
    async fn timestamp(&self, message_imprint_sha256: [u8; 32]) -> Result<Vec<u8>, TimestampError> {
        self.1.fetch_add(1, Ordering::Relaxed);
        let request = TimestampRequest::new(message_imprint_sha256)?;
        request.token_from_response(&self.0.timestamp_reply_with("tsa-large.cnf", request.der()))
    }
}

/// A time-stamping authority that is down.
#[derive(Debug)]
pub(crate) struct DownTsa;

#[async_trait]
impl TimestampAuthority for DownTsa {
    async fn timestamp(&self, _: [u8; 32]) -> Result<Vec<u8>, TimestampError> {
        Err(TimestampError::Unreachable("connection refused".to_owned()))
    }
}

/// A time-stamping authority whose "token" is not DER at all.
#[derive(Debug)]
pub(crate) struct GarbageTsa;

#[async_trait]
impl TimestampAuthority for GarbageTsa {
    async fn timestamp(&self, _: [u8; 32]) -> Result<Vec<u8>, TimestampError> {
        Ok(b"<html>Service unavailable</html>".to_vec())
    }
}

pub(crate) fn path_str(path: &Path) -> &str {
    path.to_str().unwrap()
}
