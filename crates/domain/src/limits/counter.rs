//! [`RateCounter`]: rate limits decided in memory, shared with other instances through batches.
//!
//! Each instance counts its own hits per key and window and decides every request at once from
//! (the key's shared total as it last saw it + its own hits not yet in that total). Now and then
//! (the server's sync task) [`RateCounter::take_unsynced`] hands the hits that moved to
//! [`RateLimitStore::add_hits`](crate::ports::RateLimitStore::add_hits), one statement for every
//! key, and [`RateCounter::synced`] takes the shared totals it answers. Alone, an instance decides
//! exactly as if every hit were written at once; with others, it cannot see their hits of the last
//! sync interval or so (see docs/operations.md, "Rate limits across instances", for the bound).
//!
//! Memory: only the current window is kept (a hit or a sync in a new window drops the ended ones,
//! synced or not: nobody decides on them any more). Within a window, a flood of distinct keys (one
//! app's clients from very many IPv6 addresses) is bounded by [`RateCounter::key_cap`]: past it, a
//! sync forgets the keys whose hits are all in the shared table, below the limit first. A forgotten
//! key is counted again from zero until its next sync, like a key the instance never saw. What
//! cannot be forgotten is one sync interval's worth of unsynced keys, which the request rate bounds.

use std::collections::{BTreeMap, HashMap};
use std::sync::{Mutex, PoisonError};

use crate::Timestamp;
use crate::limits::rate::{RateDecision, RateLimitKey, RateLimitPolicy, WindowHits};

/// How many keys an instance remembers beyond the ones with unsynced hits (about 120 bytes each).
pub const DEFAULT_KEY_CAP: usize = 250_000;

/// One instance's counts of the current window (see the module documentation).
#[derive(Debug)]
pub struct RateCounter {
    policy: RateLimitPolicy,
    key_cap: usize,
    windows: Mutex<BTreeMap<Timestamp, HashMap<RateLimitKey, Count>>>,
}

/// One key's count in one window, as this instance knows it.
#[derive(Debug, Default, Clone, Copy)]
struct Count {
    /// The shared total the database answered at this instance's last sync of the key (which
    /// included every hit this instance had synced).
    shared: u64,
    /// Hits handed to a sync that has not answered yet.
    in_flight: u64,
    /// Hits counted here since.
    unsynced: u64,
}

impl Count {
    fn total(&self) -> u64 {
        self.shared.saturating_add(self.in_flight).saturating_add(self.unsynced)
    }

    fn at_rest(&self) -> bool {
        self.in_flight == 0 && self.unsynced == 0
    }
}

impl RateCounter {
    pub fn new(policy: RateLimitPolicy) -> Self {
        Self::with_key_cap(policy, DEFAULT_KEY_CAP)
    }

    /// A counter that remembers at most `key_cap` keys whose hits are all synced.
    pub fn with_key_cap(policy: RateLimitPolicy, key_cap: usize) -> Self {
        Self { policy, key_cap, windows: Mutex::new(BTreeMap::new()) }
    }

    pub fn policy(&self) -> RateLimitPolicy {
        self.policy
    }

    pub fn key_cap(&self) -> usize {
        self.key_cap
    }

    /// Counts a request and decides on it, without waiting for anything.
    pub fn hit(&self, key: &RateLimitKey, now: Timestamp) -> RateDecision {
        let window = self.policy.window_start(now);
        let total = {
            let mut windows = self.lock();
            drop_ended(&mut windows, window);
            let keys = windows.entry(window).or_default();
            // Looked up before inserting so that a known key (nearly every hit) is not cloned.
            if let Some(count) = keys.get_mut(key) {
                count.unsynced = count.unsynced.saturating_add(1);
                count.total()
            } else {
                let count = Count { unsynced: 1, ..Count::default() };
                keys.insert(key.clone(), count);
                count.total()
            }
        };
        self.policy.decide(total, now)
    }

    /// The hits counted since the last sync, per key and window, now in flight: give them to
    /// [`RateLimitStore::add_hits`](crate::ports::RateLimitStore::add_hits), then to
    /// [`Self::synced`] or [`Self::sync_failed`]. Empty when nothing moved. Ended windows are
    /// dropped first.
    pub fn take_unsynced(&self, now: Timestamp) -> Vec<WindowHits> {
        let mut windows = self.lock();
        drop_ended(&mut windows, self.policy.window_start(now));
        let mut batch = Vec::new();
        for (window, keys) in windows.iter_mut() {
            for (key, count) in keys.iter_mut().filter(|(_, count)| count.unsynced > 0) {
                batch.push(WindowHits { key: key.clone(), window_start: *window, hits: count.unsynced });
                count.in_flight = count.in_flight.saturating_add(count.unsynced);
                count.unsynced = 0;
            }
        }
        batch
    }

    /// The shared totals the database answered for `batch` (in its order): each key now knows
    /// every hit that instances had synced before.
    pub fn synced(&self, batch: &[WindowHits], shared_totals: &[u64]) {
        let mut windows = self.lock();
        for (sent, &total) in batch.iter().zip(shared_totals) {
            // Its window may have ended meanwhile: then there is nothing left to update.
            let Some(count) = windows.get_mut(&sent.window_start).and_then(|keys| keys.get_mut(&sent.key)) else {
                continue;
            };
            count.in_flight = count.in_flight.saturating_sub(sent.hits);
            // Shared totals only grow; an older answer (of a sync that overlapped) never lowers it.
            count.shared = count.shared.max(total);
        }
        self.forget_beyond_cap(&mut windows);
    }

    /// `batch` could not be stored: its hits are sent again with the next sync.
    pub fn sync_failed(&self, batch: &[WindowHits]) {
        let mut windows = self.lock();
        for sent in batch {
            if let Some(count) = windows.get_mut(&sent.window_start).and_then(|keys| keys.get_mut(&sent.key)) {
                count.in_flight = count.in_flight.saturating_sub(sent.hits);
                count.unsynced = count.unsynced.saturating_add(sent.hits);
            }
        }
    }

    /// Hits counted here and not yet in the shared table (in flight included).
    pub fn unsynced_hits(&self) -> u64 {
        self.lock().values().flat_map(HashMap::values).map(|c| c.in_flight.saturating_add(c.unsynced)).sum()
    }

    /// How many keys this instance remembers.
    pub fn remembered_keys(&self) -> usize {
        self.lock().values().map(HashMap::len).sum()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, BTreeMap<Timestamp, HashMap<RateLimitKey, Count>>> {
        self.windows.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Past the cap, keys whose hits are all synced are forgotten: below the limit first, so that
    /// a refused client stays refused as long as memory allows.
    fn forget_beyond_cap(&self, windows: &mut BTreeMap<Timestamp, HashMap<RateLimitKey, Count>>) {
        let remembered: usize = windows.values().map(HashMap::len).sum();
        if remembered <= self.key_cap {
            return;
        }
        let limit = self.policy.limit;
        for keys in windows.values_mut() {
            keys.retain(|_, count| !count.at_rest() || count.shared >= limit);
        }
        let remembered: usize = windows.values().map(HashMap::len).sum();
        if remembered > self.key_cap {
            for keys in windows.values_mut() {
                keys.retain(|_, count| !count.at_rest());
            }
        }
    }
}

/// Drops the windows that started before `current` (so ended: windows are aligned and equal).
fn drop_ended(windows: &mut BTreeMap<Timestamp, HashMap<RateLimitKey, Count>>, current: Timestamp) {
    if windows.first_key_value().is_some_and(|(start, _)| *start < current) {
        *windows = windows.split_off(&current);
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::indexing_slicing)]
mod tests {
    use time::Duration;

    use super::*;
    use crate::AppId;
    use crate::limits::rate::RateLimitedRoute;

    fn key(ip: &str) -> RateLimitKey {
        RateLimitKey {
            app_id: AppId::parse("0191c1a0-0000-7000-8000-000000000001").unwrap(),
            client_ip: ip.to_owned(),
            route: RateLimitedRoute::Verify,
        }
    }

    fn at(text: &str) -> Timestamp {
        Timestamp::parse_rfc3339(text).unwrap()
    }

    /// What the shared table would answer: one instance's store, summed per key and window.
    #[derive(Default)]
    struct SharedTable(HashMap<(RateLimitKey, Timestamp), u64>);

    impl SharedTable {
        fn add(&mut self, batch: &[WindowHits]) -> Vec<u64> {
            batch
                .iter()
                .map(|sent| {
                    let total = self.0.entry((sent.key.clone(), sent.window_start)).or_default();
                    *total += sent.hits;
                    *total
                })
                .collect()
        }
    }

    fn sync(counter: &RateCounter, table: &mut SharedTable, now: Timestamp) -> usize {
        let batch = counter.take_unsynced(now);
        let totals = table.add(&batch);
        counter.synced(&batch, &totals);
        batch.len()
    }

    #[test]
    fn alone_it_decides_as_if_every_hit_were_stored_at_once() {
        let policy = RateLimitPolicy::per_hour(3);
        let counter = RateCounter::new(policy);
        let mut table = SharedTable::default();
        let now = at("2026-11-22T07:15:00.000Z");
        for (expected_remaining, sync_before) in [(2, false), (1, true), (0, false)] {
            if sync_before {
                sync(&counter, &mut table, now);
            }
            let decision = counter.hit(&key("198.51.100.1"), now);
            assert_eq!(
                decision,
                RateDecision { allowed: true, limit: 3, remaining: expected_remaining, reset_after_secs: 45 * 60 }
            );
        }
        sync(&counter, &mut table, now);
        let refused = counter.hit(&key("198.51.100.1"), now);
        assert_eq!(refused, policy.decide(4, now), "the limit + 1-th request is refused with the same headers");
        assert!(!refused.allowed);
        assert!(counter.hit(&key("198.51.100.2"), now).allowed, "another key has its own count");
        let next_window = now.saturating_add(Duration::HOUR);
        assert_eq!(counter.hit(&key("198.51.100.1"), next_window).remaining, 2, "a new window starts again");
    }

    #[test]
    fn the_shared_total_counts_what_other_instances_synced() {
        let policy = RateLimitPolicy::per_hour(5);
        let (one, two) = (RateCounter::new(policy), RateCounter::new(policy));
        let mut table = SharedTable::default();
        let now = at("2026-11-22T07:15:00.000Z");
        for _ in 0..3 {
            assert!(one.hit(&key("198.51.100.1"), now).allowed);
        }
        sync(&one, &mut table, now);
        // The second instance has not seen the key's total yet: it counts from its own hits.
        assert_eq!(two.hit(&key("198.51.100.1"), now).remaining, 4);
        sync(&two, &mut table, now);
        assert_eq!(two.hit(&key("198.51.100.1"), now).remaining, 0, "3 + 1 synced + this one");
        assert!(!two.hit(&key("198.51.100.1"), now).allowed);
        // The first one learns the others' hits with its next sync of the key.
        assert_eq!(one.hit(&key("198.51.100.1"), now).remaining, 1, "its own 4th hit, the others unseen");
        sync(&one, &mut table, now);
        assert!(!one.hit(&key("198.51.100.1"), now).allowed);
    }

    #[test]
    fn nothing_moved_nothing_to_sync_and_each_hit_is_synced_once() {
        let counter = RateCounter::new(RateLimitPolicy::per_hour(10));
        let mut table = SharedTable::default();
        let now = at("2026-11-22T07:15:00.000Z");
        assert!(counter.take_unsynced(now).is_empty());
        counter.hit(&key("198.51.100.1"), now);
        counter.hit(&key("198.51.100.1"), now);
        counter.hit(&key("198.51.100.2"), now);
        assert_eq!(counter.unsynced_hits(), 3);
        assert_eq!(sync(&counter, &mut table, now), 2, "one entry per key that moved");
        assert_eq!(counter.unsynced_hits(), 0);
        assert_eq!(sync(&counter, &mut table, now), 0, "nothing moved since");
        assert_eq!(table.0[&(key("198.51.100.1"), RateLimitPolicy::per_hour(10).window_start(now))], 2);
    }

    #[test]
    fn a_failed_sync_keeps_its_hits_for_the_next_one_and_decisions_go_on() {
        let counter = RateCounter::new(RateLimitPolicy::per_hour(2));
        let mut table = SharedTable::default();
        let now = at("2026-11-22T07:15:00.000Z");
        counter.hit(&key("198.51.100.1"), now);
        let failed = counter.take_unsynced(now);
        assert_eq!(counter.hit(&key("198.51.100.1"), now).remaining, 0, "hits in flight still count");
        counter.sync_failed(&failed);
        assert!(!counter.hit(&key("198.51.100.1"), now).allowed);
        assert_eq!(counter.unsynced_hits(), 3);
        let batch = counter.take_unsynced(now);
        assert_eq!(batch.len(), 1);
        assert_eq!(batch[0].hits, 3, "the failed sync's hit and the two since, in one entry");
        counter.synced(&batch, &table.add(&batch));
        assert_eq!(counter.unsynced_hits(), 0);
        assert!(!counter.hit(&key("198.51.100.1"), now).allowed);
    }

    #[test]
    fn hits_made_while_a_sync_is_in_flight_are_not_lost_or_counted_twice() {
        let counter = RateCounter::new(RateLimitPolicy::per_hour(10));
        let mut table = SharedTable::default();
        let now = at("2026-11-22T07:15:00.000Z");
        counter.hit(&key("198.51.100.1"), now);
        let batch = counter.take_unsynced(now);
        counter.hit(&key("198.51.100.1"), now);
        counter.synced(&batch, &table.add(&batch));
        assert_eq!(counter.hit(&key("198.51.100.1"), now).remaining, 7, "1 synced + 1 unsynced + this one");
        // An overlapping sync that answers late with an older total does not lower what is known.
        counter.synced(&batch, &[0]);
        assert_eq!(counter.hit(&key("198.51.100.1"), now).remaining, 6);
    }

    #[test]
    fn ended_windows_are_dropped_synced_or_not() {
        let counter = RateCounter::new(RateLimitPolicy::per_hour(10));
        let now = at("2026-11-22T07:15:00.000Z");
        counter.hit(&key("198.51.100.1"), now);
        counter.hit(&key("198.51.100.2"), now);
        let later = now.saturating_add(Duration::HOUR);
        assert!(counter.take_unsynced(later).is_empty(), "the ended window's hits are not sent");
        assert_eq!((counter.remembered_keys(), counter.unsynced_hits()), (0, 0));
        counter.hit(&key("198.51.100.1"), now);
        counter.hit(&key("198.51.100.3"), later);
        assert_eq!(counter.remembered_keys(), 1, "a hit in a new window drops the ended ones");
    }

    #[test]
    fn past_the_cap_synced_keys_are_forgotten_refused_ones_last() {
        let policy = RateLimitPolicy::per_hour(2);
        let counter = RateCounter::with_key_cap(policy, 3);
        let mut table = SharedTable::default();
        let now = at("2026-11-22T07:15:00.000Z");
        for _ in 0..3 {
            counter.hit(&key("198.51.100.1"), now);
        }
        for ip in ["198.51.100.2", "198.51.100.3", "198.51.100.4"] {
            counter.hit(&key(ip), now);
        }
        sync(&counter, &mut table, now);
        assert_eq!(counter.remembered_keys(), 1, "4 keys > 3: the ones below the limit are forgotten");
        assert!(!counter.hit(&key("198.51.100.1"), now).allowed, "the refused client is still refused");
        // A forgotten key counts from zero until its next sync tells it the shared total again.
        assert!(counter.hit(&key("198.51.100.2"), now).allowed);
        sync(&counter, &mut table, now);
        assert!(!counter.hit(&key("198.51.100.2"), now).allowed, "1 before + 1 synced + this one: over the limit");
    }
}
