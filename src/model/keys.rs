//! A track's keys ([`Keys`]), held in the smaller of two forms: as columns of times and values
//! when no key carries per-key data (a sampled take: Step, Linear, Cubic or Slerp keys with only
//! a time and a value), or as full [`Key`]s when one does (TCB, ease, handles, segment
//! settings). Both read as a `Vec<Key>`; the form is storage, not meaning.
//!
//! Why: a full key is 128 bytes plus its value's allocation (160 bytes for three numbers),
//! where its numbers are 32; a 7.2-million-key take held that way needs 1.6 GB. As columns a
//! key of three numbers costs its 24 bytes of value and, since every track of a take has the
//! same times, its share of one list of times ([`share_times`]); the compiled curve reads the
//! same columns without a copy ([`Keys::columns`]).
//!
//! The contract:
//! - `Keys::from(vec)` keeps the columns form when every key is [`Key::is_plain`] and the
//!   values have one length; reading (`Deref`) gives the same `Vec<Key>` either way.
//! - Reading a columns-form track as `Vec<Key>` makes the full keys once and keeps them beside
//!   the columns ([`Keys::is_read_whole`]); the paths that run for every track (compiling,
//!   validation, saving, the views' key ranges) read the columns instead.
//! - Changing keys in place (`DerefMut`) turns the track into full keys; [`Keys::splice`] of
//!   plain keys and [`Keys::compact`] keep or bring it back to columns.

use std::ops::{Deref, DerefMut};
use std::sync::{Arc, OnceLock};

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::Key;

/// A track's keys: full [`Key`]s, or the columns of plain keys.
pub struct Keys {
    form: Form,
    /// The full keys of a columns-form track, made on its first read as `Vec<Key>`.
    read_whole: OnceLock<Vec<Key>>,
}

enum Form {
    Full(Vec<Key>),
    Columns(Columns),
}

/// The keys of a track none of whose keys carries per-key data: times and values, flattened.
///
/// # Invariants
/// `values.len() == times.len() * dim`, `dim ≥ 1`, at least one key ([`Columns::new`] checks
/// them; outside this crate it is the only way to make one).
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct Columns {
    /// Key times, in key order (shared between tracks with the same times).
    pub times: Arc<[f64]>,
    /// Key values, `key * dim + component`.
    pub values: Arc<[f64]>,
    pub dim: usize,
}

impl Columns {
    /// Columns of `times` and their values (`dim` each), or `None` when the lengths do not
    /// match, `dim` is 0 or there is no key. Times and values are checked as a track's are
    /// when it is compiled or loaded, not here.
    #[must_use]
    pub fn new(times: Arc<[f64]>, values: Arc<[f64]>, dim: usize) -> Option<Columns> {
        (dim > 0 && !times.is_empty() && times.len().checked_mul(dim) == Some(values.len())).then_some(Columns { times, values, dim })
    }

    /// The columns of `keys` if every key is plain and their values have one non-zero length.
    fn of(keys: &[Key]) -> Option<Columns> {
        let dim = keys.first()?.value.len();
        if dim == 0 || !keys.iter().all(|k| k.value.len() == dim && k.is_plain()) {
            return None;
        }
        let times: Arc<[f64]> = keys.iter().map(|k| k.time).collect();
        let values: Arc<[f64]> = keys.iter().flat_map(|k| k.value.iter().copied()).collect();
        Some(Columns { times, values, dim })
    }

    /// Number of keys.
    #[must_use]
    pub fn len(&self) -> usize {
        self.times.len()
    }
    /// Never true (a columns form has at least one key); here for clippy's `len` rule.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.times.is_empty()
    }

    /// Value of key `i`.
    #[must_use]
    pub fn value(&self, i: usize) -> &[f64] {
        &self.values[i * self.dim..(i + 1) * self.dim]
    }

    /// Key `i` as a full key.
    #[must_use]
    pub fn key(&self, i: usize) -> Key {
        Key::new(self.times[i], self.value(i).to_vec())
    }

    fn to_keys(&self) -> Vec<Key> {
        (0..self.len()).map(|i| self.key(i)).collect()
    }
}

impl Keys {
    /// No keys.
    #[must_use]
    pub const fn new() -> Self {
        Self { form: Form::Full(Vec::new()), read_whole: OnceLock::new() }
    }

    /// `keys` held as full keys even when they are plain (what a track was before columns):
    /// for comparisons of the two forms.
    #[must_use]
    pub fn full(keys: Vec<Key>) -> Self {
        Self { form: Form::Full(keys), read_whole: OnceLock::new() }
    }

    /// The columns, if the keys are held that way.
    #[must_use]
    pub fn columns(&self) -> Option<&Columns> {
        match &self.form {
            Form::Columns(c) => Some(c),
            Form::Full(_) => None,
        }
    }

    /// The full keys, if the keys are held that way: a question about per-key data (TCB,
    /// handles, segment settings) needs only these, since columns hold plain keys alone.
    #[must_use]
    pub fn full_keys(&self) -> Option<&[Key]> {
        match &self.form {
            Form::Full(v) => Some(v),
            Form::Columns(_) => None,
        }
    }

    /// Number of keys (without making full keys).
    #[must_use]
    pub fn len(&self) -> usize {
        match &self.form {
            Form::Full(v) => v.len(),
            Form::Columns(c) => c.len(),
        }
    }

    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Key `i`: borrowed from full keys, made from columns (one key, not the track).
    /// Panics past the end, as indexing does.
    #[must_use]
    pub fn key(&self, i: usize) -> std::borrow::Cow<'_, Key> {
        match &self.form {
            Form::Full(v) => std::borrow::Cow::Borrowed(&v[i]),
            Form::Columns(c) => std::borrow::Cow::Owned(c.key(i)),
        }
    }

    /// Time of key `i` (without making full keys). Panics past the end, as indexing does.
    #[must_use]
    pub fn time(&self, i: usize) -> f64 {
        match &self.form {
            Form::Full(v) => v[i].time,
            Form::Columns(c) => c.times[i],
        }
    }

    /// Value of key `i` (without making full keys). Panics past the end, as indexing does.
    #[must_use]
    pub fn value(&self, i: usize) -> &[f64] {
        match &self.form {
            Form::Full(v) => &v[i].value,
            Form::Columns(c) => c.value(i),
        }
    }

    /// The number of keys whose time satisfies `before` (which must hold for a prefix of the
    /// keys), by binary search without making full keys: `Vec::partition_point` on times.
    #[must_use]
    pub fn partition_point(&self, before: impl Fn(f64) -> bool) -> usize {
        match &self.form {
            Form::Full(v) => v.partition_point(|k| before(k.time)),
            Form::Columns(c) => c.times.partition_point(|&t| before(t)),
        }
    }

    /// The key times, in order (without making full keys).
    pub fn times(&self) -> impl ExactSizeIterator<Item = f64> + DoubleEndedIterator + '_ {
        (0..self.len()).map(|i| self.time(i))
    }

    /// Whether the keys are held as full keys, or as columns that have been read whole (and so
    /// cost a full key each besides): what the memory of a take is spent on.
    #[must_use]
    pub fn is_read_whole(&self) -> bool {
        match &self.form {
            Form::Full(v) => !v.is_empty(),
            Form::Columns(_) => self.read_whole.get().is_some(),
        }
    }

    /// Brings full keys back to columns if every key is plain (after an edit that no longer
    /// needs per-key data), dropping what a read made.
    pub fn compact(&mut self) {
        if let Form::Full(v) = &self.form {
            if let Some(c) = Columns::of(v) {
                self.form = Form::Columns(c);
            }
        }
        self.read_whole = OnceLock::new();
    }

    /// Drops the full keys a read of a columns-form track made (they are made again if read):
    /// what the undo history does to the keys it keeps, so it holds only columns.
    pub fn forget_reads(&mut self) {
        if matches!(self.form, Form::Columns(_)) {
            self.read_whole = OnceLock::new();
        }
    }

    /// Replaces keys `range` with `keys` and returns the keys replaced. Plain keys of the same
    /// length spliced into columns keep the columns form (the cost is a copy of the columns,
    /// not a full key per key); anything else turns the track into full keys first.
    ///
    /// # Panics
    /// If `range` is out of bounds, as `Vec::splice`.
    pub fn splice(&mut self, range: std::ops::Range<usize>, keys: Vec<Key>) -> Vec<Key> {
        if let Form::Columns(c) = &self.form {
            let dim = c.dim;
            if keys.iter().all(|k| k.value.len() == dim && k.is_plain()) && range.start <= range.end && range.end <= c.len() {
                let old: Vec<Key> = range.clone().map(|i| c.key(i)).collect();
                let n = c.len() - range.len() + keys.len();
                if n > 0 {
                    let times = spliced(&c.times, range.clone(), keys.iter().map(|k| k.time));
                    let values = spliced(&c.values, range.start * dim..range.end * dim, keys.iter().flat_map(|k| k.value.iter().copied()));
                    self.form = Form::Columns(Columns { times, values, dim });
                } else {
                    self.form = Form::Full(Vec::new());
                }
                self.read_whole = OnceLock::new();
                return old;
            }
        }
        self.deref_mut().splice(range, keys).collect()
    }

    /// The keys as full keys without keeping them: borrowed from full keys, made for the
    /// caller from columns (for a one-off pass such as compiling a TCB or Bezier track).
    #[must_use]
    pub fn as_full(&self) -> std::borrow::Cow<'_, [Key]> {
        match &self.form {
            Form::Full(v) => std::borrow::Cow::Borrowed(v),
            Form::Columns(c) => self.read_whole.get().map_or_else(|| std::borrow::Cow::Owned(c.to_keys()), |v| std::borrow::Cow::Borrowed(v.as_slice())),
        }
    }

    /// The same keys with `values` (`key * dim + component`, `dim` the keys' value length) in
    /// place of theirs: columns share their times, full keys keep their other fields.
    ///
    /// # Panics
    /// If `values` is not `len() × dim` long.
    #[must_use]
    pub fn with_values(&self, values: Vec<f64>) -> Keys {
        match &self.form {
            Form::Full(v) => {
                let dim = v.first().map_or(0, |k| k.value.len());
                assert_eq!(values.len(), v.len() * dim, "one value per key");
                Keys::from(v.iter().zip(values.chunks_exact(dim.max(1))).map(|(k, x)| Key { value: x.to_vec(), ..k.clone() }).collect::<Vec<_>>())
            }
            Form::Columns(c) => {
                assert_eq!(values.len(), c.values.len(), "one value per key");
                Keys::from(Columns { times: Arc::clone(&c.times), values: values.into(), dim: c.dim })
            }
        }
    }

    /// Keys `range`, in the same form (columns are copied, not read whole).
    ///
    /// # Panics
    /// If `range` is out of bounds, as slicing.
    #[must_use]
    pub fn part(&self, range: std::ops::Range<usize>) -> Keys {
        match &self.form {
            Form::Full(v) => Keys::from(v[range].to_vec()),
            Form::Columns(c) => {
                Keys::from(Columns { times: c.times[range.clone()].into(), values: c.values[range.start * c.dim..range.end * c.dim].into(), dim: c.dim })
            }
        }
    }

    /// The keys as full keys, taken out (the columns form makes them).
    #[must_use]
    pub fn into_vec(self) -> Vec<Key> {
        match self.form {
            Form::Full(v) => v,
            Form::Columns(c) => self.read_whole.into_inner().unwrap_or_else(|| c.to_keys()),
        }
    }
}

impl Default for Keys {
    fn default() -> Self {
        Self::new()
    }
}

impl From<Vec<Key>> for Keys {
    /// Columns when every key is plain, full keys otherwise.
    fn from(keys: Vec<Key>) -> Self {
        let form = Columns::of(&keys).map_or(Form::Full(keys), Form::Columns);
        Self { form, read_whole: OnceLock::new() }
    }
}

impl From<Columns> for Keys {
    fn from(columns: Columns) -> Self {
        if columns.is_empty() || columns.dim == 0 {
            return Self::new();
        }
        Self { form: Form::Columns(columns), read_whole: OnceLock::new() }
    }
}

impl FromIterator<Key> for Keys {
    fn from_iter<I: IntoIterator<Item = Key>>(iter: I) -> Self {
        Self::from(iter.into_iter().collect::<Vec<_>>())
    }
}

impl Deref for Keys {
    type Target = Vec<Key>;
    /// The keys as full keys; a columns-form track makes them on its first read and keeps them.
    fn deref(&self) -> &Vec<Key> {
        match &self.form {
            Form::Full(v) => v,
            Form::Columns(c) => self.read_whole.get_or_init(|| c.to_keys()),
        }
    }
}

impl DerefMut for Keys {
    /// The keys to change in place: a columns-form track becomes full keys
    /// ([`Keys::compact`] brings it back).
    fn deref_mut(&mut self) -> &mut Vec<Key> {
        if let Form::Columns(c) = &self.form {
            let full = std::mem::take(&mut self.read_whole).into_inner().unwrap_or_else(|| c.to_keys());
            self.form = Form::Full(full);
        }
        match &mut self.form {
            Form::Full(v) => v,
            Form::Columns(_) => unreachable!("made full above"),
        }
    }
}

impl Clone for Keys {
    /// Columns are shared (a clone of a take costs nothing); full keys are copied.
    fn clone(&self) -> Self {
        let form = match &self.form {
            Form::Full(v) => Form::Full(v.clone()),
            Form::Columns(c) => Form::Columns(c.clone()),
        };
        Self { form, read_whole: OnceLock::new() }
    }
}

impl PartialEq for Keys {
    fn eq(&self, other: &Self) -> bool {
        match (self.columns(), other.columns()) {
            (Some(a), Some(b)) => a == b,
            _ => self.len() == other.len() && **self == **other,
        }
    }
}

impl std::fmt::Debug for Keys {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.form {
            Form::Full(v) => v.fmt(f),
            Form::Columns(c) => f.debug_list().entries((0..c.len()).map(|i| c.key(i))).finish(),
        }
    }
}

impl<'a> IntoIterator for &'a Keys {
    type Item = &'a Key;
    type IntoIter = std::slice::Iter<'a, Key>;
    fn into_iter(self) -> Self::IntoIter {
        self.deref().iter()
    }
}

impl<'a> IntoIterator for &'a mut Keys {
    type Item = &'a mut Key;
    type IntoIter = std::slice::IterMut<'a, Key>;
    /// Changing keys in place: the track becomes full keys.
    fn into_iter(self) -> Self::IntoIter {
        self.deref_mut().iter_mut()
    }
}

impl IntoIterator for Keys {
    type Item = Key;
    type IntoIter = std::vec::IntoIter<Key>;
    fn into_iter(self) -> Self::IntoIter {
        self.into_vec().into_iter()
    }
}

impl PartialEq<Vec<Key>> for Keys {
    fn eq(&self, other: &Vec<Key>) -> bool {
        self.len() == other.len() && **self == *other
    }
}

impl PartialEq<Keys> for Vec<Key> {
    fn eq(&self, other: &Keys) -> bool {
        other == self
    }
}

/// A plain key as the file writes it: a [`Key`] whose other fields all have their defaults
/// (and so are skipped), without making one.
#[derive(Serialize)]
#[serde(rename = "Key")]
struct PlainKey<'a> {
    time: f64,
    value: &'a [f64],
}

impl Serialize for Keys {
    /// As the list of keys, the same text in either form.
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match &self.form {
            Form::Full(v) => v.serialize(serializer),
            Form::Columns(c) => serializer.collect_seq((0..c.len()).map(|i| PlainKey { time: c.times[i], value: c.value(i) })),
        }
    }
}

impl<'de> Deserialize<'de> for Keys {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        Vec::<Key>::deserialize(deserializer).map(Keys::from)
    }
}

/// `column` with `range` replaced by `new`, as a new column (a column is shared, so it is not
/// changed in place).
pub(crate) fn spliced(column: &[f64], range: std::ops::Range<usize>, new: impl Iterator<Item = f64>) -> Arc<[f64]> {
    column[..range.start].iter().copied().chain(new).chain(column[range.end..].iter().copied()).collect()
}

/// Makes tracks whose columns have the same times share one list of them (every track of a
/// sampled take has the same times: 200 copies of 36,000 times are 58 MB).
pub fn share_times<'a>(keys: impl IntoIterator<Item = &'a mut Keys>) {
    let mut seen: Vec<Arc<[f64]>> = Vec::new();
    for k in keys {
        let Form::Columns(c) = &mut k.form else { continue };
        match seen
            .iter()
            .find(|s| Arc::ptr_eq(s, &c.times) || (s.len() == c.times.len() && s.iter().zip(c.times.iter()).all(|(a, b)| a.to_bits() == b.to_bits())))
        {
            Some(s) => c.times = Arc::clone(s),
            None => seen.push(Arc::clone(&c.times)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plain(n: usize) -> Vec<Key> {
        (0..n).map(|i| Key::new(i as f64 * 0.5, vec![i as f64, -0.0, 1e-300])).collect()
    }

    /// Both forms write the same text, with RON's own serializer and pretty settings as a
    /// saved file has them, and read back to the same keys.
    #[test]
    fn both_forms_write_the_same_text() {
        let (columns, full) = (Keys::from(plain(4)), Keys::full(plain(4)));
        assert!(columns.columns().is_some() && full.columns().is_none());
        for pretty in [None, Some(ron::ser::PrettyConfig::new())] {
            let text = |k: &Keys| pretty.clone().map_or_else(|| ron::to_string(k), |p| ron::ser::to_string_pretty(k, p)).unwrap();
            assert_eq!(text(&columns), text(&full));
            let back: Keys = ron::from_str(&text(&columns)).unwrap();
            assert_eq!(back, full);
            assert!(back.columns().is_some(), "plain keys load as columns");
        }
    }

    #[test]
    fn columns_are_made_only_with_matching_lengths() {
        let t: Arc<[f64]> = vec![0.0, 1.0].into();
        assert!(Columns::new(t.clone(), vec![0.0; 6].into(), 3).is_some());
        assert!(Columns::new(t.clone(), vec![0.0; 5].into(), 3).is_none());
        assert!(Columns::new(t, Vec::new().into(), 0).is_none());
        assert!(Columns::new(Vec::new().into(), Vec::new().into(), 3).is_none());
    }

    /// Equal times are shared; times that differ only in the sign of a zero are not (sharing
    /// must not change a bit).
    #[test]
    fn share_times_shares_only_identical_bits() {
        let mut a = Keys::from(plain(3));
        let mut b = Keys::from(plain(3));
        let mut c = Keys::from(vec![Key::new(-0.0, vec![0.0, 0.0, 0.0]), Key::new(0.5, vec![0.0; 3]), Key::new(1.0, vec![0.0; 3])]);
        share_times([&mut a, &mut b, &mut c]);
        let times = |k: &Keys| k.columns().map(|c| Arc::clone(&c.times)).unwrap();
        assert!(Arc::ptr_eq(&times(&a), &times(&b)));
        assert!(!Arc::ptr_eq(&times(&a), &times(&c)));
        assert_eq!(c.time(0).to_bits(), (-0.0f64).to_bits());
    }
}
