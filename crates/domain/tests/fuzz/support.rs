//! What every fuzz property shares: how many cases to run, and inputs no ordinary strategy makes.

use proptest::prelude::*;
use proptest::test_runner::Config;

/// The number of cases per property: `PROPTEST_CASES` when set, else `default`.
pub(crate) fn cases(default: u32) -> Config {
    let cases = std::env::var("PROPTEST_CASES").ok().and_then(|value| value.parse().ok()).unwrap_or(default);
    // Failures are kept as named regression tests, not in files next to the sources.
    Config { cases, failure_persistence: None, ..Config::default() }
}

/// Arbitrary bytes read as text the way a server reads a request it cannot trust: lossily.
pub(crate) fn lossy_bytes(max_len: usize) -> impl Strategy<Value = String> {
    prop::collection::vec(any::<u8>(), 0..max_len).prop_map(|bytes| String::from_utf8_lossy(&bytes).into_owned())
}

/// Text of every kind a client can send: any characters (control, combining, astral, private
/// use), arbitrary bytes, and long runs far past every limit.
pub(crate) fn hostile_text() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => any::<String>(),
        2 => "\\PC{0,40}",
        2 => lossy_bytes(64),
        1 => (prop::sample::select(vec!["a", "é", "\u{0}", "%", "{", ".", "-", "\u{1F600}", "9"]), 200..5000usize)
            .prop_map(|(unit, count)| unit.repeat(count)),
    ]
}
