//! Property-based fuzzing of every parser that reads what arrives over the network: the Signature
//! and the events cursor, placeholder values and their URL-decoding, the HTML sanitizer (against
//! a corpus of known script vectors, `xss_vectors.txt`), language tags, tags, names, end user ids
//! and the other text values, and webhook URLs (every spelling of a non-public address).
//!
//! Each parser must never panic, must give back what its formatter wrote, and must refuse exactly
//! what it should. The default number of cases keeps the suite quick; set `PROPTEST_CASES` for a
//! deeper run (`PROPTEST_CASES=20000 cargo nextest run -p clickwrap-domain --test fuzz`).

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing, clippy::panic)] // test code

mod placeholders;
mod sanitizer;
mod support;
mod text_values;
mod tokens;
mod webhook_urls;
