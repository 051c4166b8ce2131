//! A cache bounded in bytes for what rendering makes again and again from the same inputs: lines
//! of fixed texts and of a template version's texts, embedded font subsets, Unicode maps.
//!
//! Every entry is keyed by all that its value is computed from (never by an id that stands for
//! it), so a hit is the value a cold render would compute, byte for byte, and nothing ever needs
//! to be invalidated. Bounded in bytes rather than entries because entries differ a thousandfold
//! in size (a label's line against a long agreement's paragraphs or a CJK font subset).
//!
//! Two generations, the simplest scheme that keeps what is in use and needs no bookkeeping per
//! hit: new entries go into the current one; when it holds half the budget it becomes the
//! previous one and the one before is dropped. A hit in the previous generation moves the entry
//! into the current one, so what every render uses survives rotations.

use std::collections::HashMap;
use std::hash::Hash;
use std::sync::{Mutex, PoisonError};

#[derive(Debug)]
pub(crate) struct BoundedCache<K, V> {
    /// Bytes both generations hold at most, together.
    budget: usize,
    generations: Mutex<Generations<K, V>>,
}

#[derive(Debug)]
struct Generations<K, V> {
    current: HashMap<K, (V, usize)>,
    current_bytes: usize,
    previous: HashMap<K, (V, usize)>,
}

impl<K: Hash + Eq, V: Clone> BoundedCache<K, V> {
    pub(crate) fn new(budget: usize) -> Self {
        BoundedCache {
            budget,
            generations: Mutex::new(Generations {
                current: HashMap::new(),
                current_bytes: 0,
                previous: HashMap::new(),
            }),
        }
    }

    fn generation_budget(&self) -> usize {
        self.budget / 2
    }

    pub(crate) fn get<Q>(&self, key: &Q) -> Option<V>
    where
        K: std::borrow::Borrow<Q>,
        Q: Hash + Eq + ?Sized,
    {
        let mut generations = self.generations.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some((value, _)) = generations.current.get(key) {
            return Some(value.clone());
        }
        let (stored_key, (value, bytes)) = generations.previous.remove_entry(key)?;
        let found = value.clone();
        self.put(&mut generations, stored_key, value, bytes);
        Some(found)
    }

    /// Keeps `value`, which takes about `bytes` of memory (key included). A value larger than
    /// half the budget is not kept.
    pub(crate) fn insert(&self, key: K, value: V, bytes: usize) {
        if bytes > self.generation_budget() {
            return;
        }
        let mut generations = self.generations.lock().unwrap_or_else(PoisonError::into_inner);
        self.put(&mut generations, key, value, bytes);
    }

    fn put(&self, generations: &mut Generations<K, V>, key: K, value: V, bytes: usize) {
        // A key is in one generation at most.
        generations.previous.remove(&key);
        if let Some((_, replaced)) = generations.current.remove(&key) {
            generations.current_bytes -= replaced;
        }
        if generations.current_bytes + bytes > self.generation_budget() {
            generations.previous = std::mem::take(&mut generations.current);
            generations.current_bytes = 0;
        }
        generations.current.insert(key, (value, bytes));
        generations.current_bytes += bytes;
    }

    /// The value for `key`, made by `make` unless kept; `weigh` says how many bytes it takes.
    pub(crate) fn get_or_try_insert<E>(
        &self,
        key: K,
        make: impl FnOnce() -> Result<V, E>,
        weigh: impl FnOnce(&K, &V) -> usize,
    ) -> Result<V, E> {
        if let Some(value) = self.get(&key) {
            return Ok(value);
        }
        let value = make()?;
        let bytes = weigh(&key, &value);
        self.insert(key, value.clone(), bytes);
        Ok(value)
    }

    /// [`BoundedCache::get_or_try_insert`] for what cannot fail.
    pub(crate) fn get_or_insert(&self, key: K, make: impl FnOnce() -> V, weigh: impl FnOnce(&K, &V) -> usize) -> V {
        if let Some(value) = self.get(&key) {
            return value;
        }
        let value = make();
        let bytes = weigh(&key, &value);
        self.insert(key, value.clone(), bytes);
        value
    }

    #[cfg(test)]
    fn bytes(&self) -> usize {
        let generations = self.generations.lock().unwrap_or_else(PoisonError::into_inner);
        generations.current.values().chain(generations.previous.values()).map(|(_, bytes)| bytes).sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn holds_at_most_its_budget_and_keeps_what_is_used() {
        let cache: BoundedCache<u32, u32> = BoundedCache::new(1000);
        for key in 0..1000 {
            cache.insert(key, key * 2, 30);
            // Key 0 is asked for all along: it survives every rotation.
            assert_eq!(cache.get(&0), Some(0));
            assert!(cache.bytes() <= 1000, "{} bytes after {key}", cache.bytes());
        }
        assert_eq!(cache.get(&999), Some(1998));
        assert_eq!(cache.get(&1), None, "an entry not asked for again is dropped");
    }

    #[test]
    fn an_entry_larger_than_a_generation_is_not_kept() {
        let cache: BoundedCache<u32, u32> = BoundedCache::new(1000);
        cache.insert(1, 1, 501);
        assert_eq!(cache.get(&1), None);
        cache.insert(2, 2, 500);
        assert_eq!(cache.get(&2), Some(2));
    }

    #[test]
    fn replacing_an_entry_counts_its_bytes_once() {
        let cache: BoundedCache<u32, u32> = BoundedCache::new(1000);
        cache.insert(1, 1, 400);
        cache.insert(1, 2, 400);
        assert_eq!(cache.bytes(), 400);
        assert_eq!(cache.get(&1), Some(2));
    }
}
