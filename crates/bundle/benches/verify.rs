//! How long `verify-bundle` takes over a large bundle: `cargo xtask bench bundle [--events N]`
//! (default 100,000), or `cargo bench -p clickwrap-bundle --bench verify -- --events N`.
//!
//! No database: N synthetic verified events (one in a hundred accepted, with a signed certificate
//! of acceptance; ten distinct contents) are made into records, leaves and a signed tree head with
//! the domain's functions and written with the writer `export` uses; then the verifier's library
//! function checks the bundle, as `clickwrap-server verify-bundle` does. As a baseline measured in
//! the same run, the time to merely read and parse `events.ndjson` is printed too.

#![allow(
    clippy::print_stdout,
    clippy::print_stderr,
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing
)]

use std::io::BufRead;
use std::time::Instant;

use clickwrap_bundle::{
    BUNDLE_FORMAT, BUNDLE_FORMAT_VERSION, BundleCounts, BundleWriter, EventEntry, Manifest, TreeHeadJson, verify_bundle,
};
use clickwrap_domain::consent::models::CertificateFacts;
use clickwrap_domain::consent::models::{Action, ClickwrapEvent, EventStatus, Presentation, PresentationMode};
use clickwrap_domain::content::hash::ContentHash;
use clickwrap_domain::ledger::leaf::{evidence_record, leaf_bytes};
use clickwrap_domain::ledger::merkle::{Hash, TreeLevels, leaf_hash};
use clickwrap_domain::ledger::models::SALT_LEN;
use clickwrap_domain::ledger::tree_head::{LedgerKey, TreeHead};
use clickwrap_domain::ports::CertificateRenderer;
use clickwrap_domain::templates::customizations::AgreementMode;
use clickwrap_domain::templates::versioning::VersionNumber;
use clickwrap_domain::{AppId, EndUserId, EventId, Language, TemplateId, TenantId, Timestamp};
use clickwrap_pdf::{FontLibrary, PdfRenderer, SigningIdentity};

const ACCEPTED_EVERY: u64 = 100;
const CONTENTS: u64 = 10;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let events: u64 = args
        .iter()
        .position(|arg| arg == "--events")
        .and_then(|at| args.get(at + 1))
        .map_or(100_000, |n| n.parse().expect("--events takes a number"));
    let keep = args.iter().any(|arg| arg == "--keep");
    let dir = std::env::temp_dir().join(format!("clickwrap-bundle-bench-{}", std::process::id()));

    let started = Instant::now();
    let (identity, certificate) = signed_certificate();
    let salt = |i: u64| -> [u8; SALT_LEN] { std::array::from_fn(|b| (i as u8).wrapping_add(b as u8)) };
    let certificate_sha: [u8; 32] =
        ring::digest::digest(&ring::digest::SHA256, &certificate).as_ref().try_into().unwrap();
    let cert_of = |i: u64| i.is_multiple_of(ACCEPTED_EVERY).then_some(&certificate_sha);

    let leaf_of = |i: u64| leaf_hash(&leaf_bytes(&evidence_record(&event(i), cert_of(i), &salt(i))).unwrap());
    let leaves: Vec<Hash> = (0..events).map(leaf_of).collect();
    let levels = TreeLevels::new(leaves);
    let (key, _) = LedgerKey::generate().unwrap();
    let head = key
        .sign_head(TreeHead {
            tree_size: levels.size(),
            root_hash: levels.root(),
            timestamp: Timestamp::parse_rfc3339("2026-11-26T10:00:00Z").unwrap(),
        })
        .unwrap();

    let mut writer = BundleWriter::create(&dir).unwrap();
    writer.write_keys(&key.public_key_pem(), &identity.certificate_pem()).unwrap();
    for i in 0..events {
        let event = event(i);
        let path = levels.inclusion_proof(i).unwrap();
        let leaf = leaf_of(i);
        let entry = EventEntry::for_event(i, &leaf, &event, cert_of(i), Some(&salt(i)), &path).unwrap();
        writer.add_event(&entry, &event.content, cert_of(i).map(|_| certificate.as_slice())).unwrap();
    }
    writer
        .finish(Manifest {
            format: BUNDLE_FORMAT.to_owned(),
            format_version: BUNDLE_FORMAT_VERSION,
            tenant_id: tenant().to_string(),
            created_at: "2026-11-26T10:00:00.000Z".to_owned(),
            tree_head: TreeHeadJson::from(&head),
            counts: BundleCounts::default(),
        })
        .unwrap();
    drop(levels);
    let written = started.elapsed();

    let started = Instant::now();
    let file = std::fs::File::open(dir.join("events.ndjson")).unwrap();
    let parsed = std::io::BufReader::new(file)
        .lines()
        .filter(|line| serde_json::from_str::<EventEntry>(line.as_ref().unwrap()).is_ok())
        .count();
    let baseline = started.elapsed();

    let started = Instant::now();
    let mut failures = 0;
    let summary = verify_bundle(&dir, &mut |failure| {
        failures += 1;
        eprintln!("FAILED {failure}");
    })
    .unwrap();
    let verified = started.elapsed();
    assert_eq!((summary.failures, summary.events_checked, parsed as u64), (0, events, events));

    println!("bundle of {events} events ({} certificates): {}", summary.certificates_checked, dir.display());
    println!("  synthesized and written in {:.2} s", written.as_secs_f64());
    println!("  read and parsed (baseline) in {:.2} s", baseline.as_secs_f64());
    println!(
        "  verified in {:.2} s ({:.0} events/s, {:.1} x the baseline)",
        verified.as_secs_f64(),
        events as f64 / verified.as_secs_f64(),
        verified.as_secs_f64() / baseline.as_secs_f64().max(1e-9)
    );
    if !keep {
        std::fs::remove_dir_all(&dir).unwrap();
    }
}

fn tenant() -> TenantId {
    TenantId::from_uuid(uuid::Uuid::from_u128(1))
}

fn at(text: &str) -> Timestamp {
    Timestamp::parse_rfc3339(text).unwrap()
}

/// Event `i`: its own id and end user; declined but one in [`ACCEPTED_EVERY`]; one of [`CONTENTS`].
fn event(i: u64) -> ClickwrapEvent {
    let content = format!("<h1>Terms of Service</h1><p>Version {} of the terms.</p>", i % CONTENTS);
    let accepted = i.is_multiple_of(ACCEPTED_EVERY);
    ClickwrapEvent {
        id: EventId::from_uuid(uuid::Uuid::from_u128(u128::from(i) + (1 << 64))),
        tenant_id: tenant(),
        app_id: AppId::from_uuid(uuid::Uuid::from_u128(2)),
        template_id: TemplateId::from_uuid(uuid::Uuid::from_u128(3)),
        template_name: "Terms of Service".to_owned(),
        version: VersionNumber::new(1, 0),
        effective_at: at("2026-01-01T00:00:00Z"),
        end_user_id: EndUserId::parse(&format!("user-{i}")).unwrap(),
        action: if accepted { Action::Accepted } else { Action::Declined },
        status: if accepted { EventStatus::Accepted } else { EventStatus::Declined },
        language: Language::English,
        content_hash: ContentHash::of(&content),
        content,
        template_placeholders: None,
        technical_metadata: format!(r#"{{"ipAddress":"198.51.100.{}","userAgent":"Bench/1.0"}}"#, i % 250),
        presentation: Presentation {
            mode: PresentationMode::Dialog,
            agreement_mode: AgreementMode::Checkbox,
            accept_label: "I agree".to_owned(),
            checkbox_label: Some("I have read the terms".to_owned()),
            scroll_required: None,
        },
        presented_at: at("2026-11-26T09:00:00Z"),
        action_at: at("2026-11-26T09:00:05Z"),
        verified_at: Some(at("2026-11-26T09:00:06Z")),
    }
}

/// One certificate of acceptance, signed as the service signs them; every accepted event has a copy.
fn signed_certificate() -> (SigningIdentity, Vec<u8>) {
    let identity = SigningIdentity::generate("Clickwrap bench signing").unwrap();
    let renderer = PdfRenderer::new(
        identity.clone(),
        FontLibrary::from_env(),
        "https://consent.example.com/public-client/v1/signing-certificate",
    );
    let facts = CertificateFacts { event: event(0), app_name: "Bench".to_owned(), operator_name: None };
    let runtime = tokio::runtime::Builder::new_current_thread().build().unwrap();
    (identity, runtime.block_on(renderer.render_certificate(&facts)).unwrap())
}
