//! What was last built for a track, and what was built before it: undo then redo swap a
//! track between two curves (each keeps its stamp, `document/undo.rs`), so the polylines and
//! markers of both are still at hand and neither frame builds them again.

/// The two most recent `(what it was built for, what was built)` pairs.
pub struct Recent<K, V> {
    entries: [Option<(K, V)>; 2],
}

impl<K, V> Default for Recent<K, V> {
    fn default() -> Self {
        Self { entries: [None, None] }
    }
}

impl<K: PartialEq, V> Recent<K, V> {
    /// What was built for `key`, if it is one of the two; it becomes the most recent.
    pub fn get(&mut self, key: &K) -> Option<&V> {
        if self.entries[1].as_ref().is_some_and(|(k, _)| k == key) {
            self.entries.swap(0, 1);
        }
        self.entries[0].as_ref().filter(|(k, _)| k == key).map(|(_, v)| v)
    }

    /// Keeps `value`, built for `key`, as the most recent; the older of the two is dropped.
    pub fn insert(&mut self, key: K, value: V) -> &V {
        self.entries.swap(0, 1);
        &self.entries[0].insert((key, value)).1
    }
}

#[cfg(test)]
mod tests {
    use super::Recent;

    /// Two keys alternating (undo, redo) are both found; a third drops the one used least
    /// recently.
    #[test]
    fn keeps_the_two_most_recent() {
        let mut r = Recent::default();
        r.insert(1, "one");
        r.insert(2, "two");
        assert_eq!(r.get(&1), Some(&"one"));
        assert_eq!(r.get(&2), Some(&"two"));
        assert_eq!(r.get(&1), Some(&"one"));
        r.insert(3, "three");
        assert_eq!(r.get(&2), None, "2 was used least recently");
        assert_eq!(r.get(&1), Some(&"one"));
        assert_eq!(r.get(&3), Some(&"three"));
    }
}
