//! The fast path for the bulk of a big project file: a track's `keys: [ … ]` list in the plain
//! form Tangent writes, `(time: 0.5, value: [1.0, 2.0, 3.0], tension: 0.2)`.
//!
//! RON's own float parser tries six literals (`inf`, `NaN`, …) and copies the digits into a
//! new `String` before each number, which makes it ~1.5 µs per key; this reads a key list of
//! the plain form at the speed of `f64::from_str`. It accepts only a strict subset of RON, and
//! for that subset gives exactly what RON gives:
//! - a number is a maximal run of RON's float characters without `_` (`[0-9.eE+-]`) directly
//!   followed by whitespace, `,`, `]` or `)`, converted by `f64::from_str` as RON converts it;
//! - a key is `(` `field: …` pairs `)` with the fields of [`Key`] that hold numbers, each at
//!   most once, `time` and `value` present, a trailing comma allowed;
//! - whitespace is ASCII space, tab, CR and LF.
//!
//! Anything else (a comment, a struct name, handles, `inf`, a raw identifier, …) returns
//! `None`, and the caller lets RON parse the track, with its error messages. The missing fields
//! take their serde defaults, as RON's parse of the same text does.

use crate::model::Key;

/// The keys of the list that opens at `text[open] == b'['`, and the index just past its `]`,
/// or `None` when the list is not in the plain form (then RON must parse it).
#[must_use]
pub fn parse_key_list(text: &str, open: usize) -> Option<(Vec<Key>, usize)> {
    let mut c = Cursor { text, b: text.as_bytes(), i: open };
    c.expect(b'[')?;
    // A key written by Tangent takes ~100 bytes; reserving avoids regrowing a long list.
    let mut keys = Vec::with_capacity(text.len().saturating_sub(open).min(1 << 24) / 128);
    loop {
        if c.eat(b']') {
            return Some((keys, c.i));
        }
        keys.push(c.key()?);
        if !c.eat(b',') {
            c.expect(b']')?;
            return Some((keys, c.i));
        }
    }
}

struct Cursor<'a> {
    text: &'a str,
    b: &'a [u8],
    i: usize,
}

impl<'a> Cursor<'a> {
    fn skip_ws(&mut self) {
        while matches!(self.b.get(self.i), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            self.i += 1;
        }
    }

    /// Past whitespace and `c` if `c` comes next.
    fn eat(&mut self, c: u8) -> bool {
        self.skip_ws();
        let found = self.b.get(self.i) == Some(&c);
        self.i += usize::from(found);
        found
    }

    fn expect(&mut self, c: u8) -> Option<()> {
        self.eat(c).then_some(())
    }

    /// A plain identifier (`[A-Za-z_][A-Za-z0-9_]*`).
    fn ident(&mut self) -> Option<&'a str> {
        self.skip_ws();
        let start = self.i;
        while self.b.get(self.i).is_some_and(|c| c.is_ascii_alphanumeric() || *c == b'_') {
            self.i += 1;
        }
        (start < self.i && !self.b[start].is_ascii_digit()).then(|| &self.text[start..self.i])
    }

    /// A number: RON's float characters up to a delimiter, converted as RON converts them.
    fn number(&mut self) -> Option<f64> {
        self.skip_ws();
        let start = self.i;
        while matches!(self.b.get(self.i), Some(b'0'..=b'9' | b'.' | b'e' | b'E' | b'+' | b'-')) {
            self.i += 1;
        }
        if start == self.i || !matches!(self.b.get(self.i), Some(b' ' | b'\t' | b'\n' | b'\r' | b',' | b']' | b')')) {
            return None;
        }
        self.text[start..self.i].parse().ok()
    }

    /// `[n, n, …]`, a trailing comma allowed.
    fn numbers(&mut self) -> Option<Vec<f64>> {
        self.expect(b'[')?;
        let mut out = Vec::with_capacity(4);
        loop {
            if self.eat(b']') {
                return Some(out);
            }
            out.push(self.number()?);
            if !self.eat(b',') {
                self.expect(b']')?;
                return Some(out);
            }
        }
    }

    /// One `(field: …, …)` key.
    fn key(&mut self) -> Option<Key> {
        self.expect(b'(')?;
        let (mut time, mut value) = (None, None);
        let mut scalars: [Option<f64>; 5] = [None; 5];
        loop {
            if self.eat(b')') {
                break;
            }
            let field = self.ident()?;
            self.expect(b':')?;
            let slot = match field {
                "time" => &mut time,
                "value" => {
                    if value.replace(self.numbers()?).is_some() {
                        return None;
                    }
                    if !self.eat(b',') {
                        self.expect(b')')?;
                        break;
                    }
                    continue;
                }
                "tension" => &mut scalars[0],
                "continuity" => &mut scalars[1],
                "bias" => &mut scalars[2],
                "ease_to" => &mut scalars[3],
                "ease_from" => &mut scalars[4],
                _ => return None,
            };
            if slot.replace(self.number()?).is_some() {
                return None;
            }
            if !self.eat(b',') {
                self.expect(b')')?;
                break;
            }
        }
        let [tension, continuity, bias, ease_to, ease_from] = scalars.map(|s| s.unwrap_or_default());
        Some(Key::new(time?, value?).with_tcb(tension, continuity, bias).with_ease(ease_to, ease_from))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn ron_keys(text: &str) -> Result<Vec<Key>, ron::error::SpannedError> {
        ron::Options::default().from_str(text)
    }

    /// Hand-checked: spacing, field order, integers, exponents, signs, trailing commas and
    /// missing optional fields, read to the numbers written.
    #[test]
    fn a_plain_list_reads_to_its_numbers() {
        let text = "[ (time: 0.0, value: [1.5, -2, 3e-2]),(value:[ 4.0 ,],time:+1.25e1,bias:-0.5 ,) ,\n\t(time: 2, value: [], ease_to: 1, ease_from: 0.25, tension: 1E0, continuity: -0.0),\r\n]tail";
        let (keys, end) = parse_key_list(text, 0).unwrap();
        assert_eq!(&text[end..], "tail");
        assert_eq!(keys.len(), 3);
        assert_eq!((keys[0].time, keys[0].value.as_slice()), (0.0, &[1.5, -2.0, 0.03][..]));
        assert_eq!((keys[1].time, keys[1].value.as_slice(), keys[1].bias, keys[1].tension), (12.5, &[4.0][..], -0.5, 0.0));
        let k = &keys[2];
        assert_eq!((k.time, k.value.len(), k.ease_to, k.ease_from, k.tension), (2.0, 0, 1.0, 0.25, 1.0));
        assert!(k.continuity == 0.0 && k.continuity.is_sign_negative());
        assert_eq!(k.handles, Key::new(0.0, vec![]).handles, "serde's default");
        assert_eq!(keys, ron_keys(&text[..end]).unwrap(), "RON reads the same");
        assert_eq!(parse_key_list("  []", 0), Some((vec![], 4)));
    }

    /// Everything outside the plain form is left to RON, valid RON or not.
    #[test]
    fn anything_unusual_is_left_to_ron() {
        for text in [
            "[(time: 0.0, value: [1.0]) // comment\n]",
            "[Key(time: 0.0, value: [1.0])]",
            "[(time: inf, value: [1.0])]",
            "[(time: 1_000.0, value: [1.0])]",
            "[(time: 1.0f64, value: [1.0])]",
            "[(time: 0.0, value: [1.0], handles: (Free, Free))]",
            "[(time: 0.0, time: 1.0, value: [1.0])]",
            "[(time: 0.0, value: [1.0], value: [2.0])]",
            "[(time: 0.0)]",
            "[(value: [1.0])]",
            "[(time: 0.0, value: [,])]",
            "[(r#time: 0.0, value: [1.0])]",
            "[(time: 1..2, value: [1.0])]",
            "[(time: 1.0.0, value: [1.0])]",
            "[(time: 0.0, value: [1.0]),,]",
            "[(time: 0.0, value: [1.0])",
            "[(time: 0.0,, value: [1.0])]",
            "[(time: 0.0 value: [1.0])]",
            "[(time:\u{A0}0.0, value: [1.0])]",
        ] {
            assert_eq!(parse_key_list(text, 0), None, "{text}");
        }
    }

    fn key_strategy() -> impl Strategy<Value = Key> {
        let number = prop_oneof![any::<f64>().prop_filter("finite", |x| x.is_finite()), (-1000i32..1000).prop_map(f64::from), Just(-0.0)];
        (number.clone(), prop::collection::vec(number.clone(), 0..5), prop::array::uniform5(prop_oneof![Just(0.0), number])).prop_map(
            |(time, value, [tension, continuity, bias, ease_to, ease_from])| Key { tension, continuity, bias, ease_to, ease_from, ..Key::new(time, value) },
        )
    }

    proptest! {
        /// Keys written by RON (pretty and compact) read back as RON reads them: bit for bit.
        #[test]
        fn written_keys_read_back_as_ron_reads_them(keys in prop::collection::vec(key_strategy(), 0..20), pretty in any::<bool>()) {
            let text = if pretty {
                ron::ser::to_string_pretty(&keys, ron::ser::PrettyConfig::new().struct_names(false)).unwrap()
            } else {
                ron::to_string(&keys).unwrap()
            };
            let (fast, end) = parse_key_list(&text, 0).expect("the plain form");
            prop_assert_eq!(end, text.len());
            let bits = |k: &[Key]| k.iter().map(|k| (k.time.to_bits(), k.value.iter().map(|v| v.to_bits()).collect::<Vec<_>>(), k.bias.to_bits())).collect::<Vec<_>>();
            prop_assert_eq!(bits(&fast), bits(&ron_keys(&text).unwrap()));
            prop_assert_eq!(fast, keys);
        }

        /// Whatever the text, a list the fast path accepts is one RON accepts, with the same keys.
        #[test]
        fn an_accepted_list_is_what_ron_reads(edits in prop::collection::vec((any::<prop::sample::Index>(), 0u8..3, prop::sample::select(b" ,.-+eE_01[]():a/\n".to_vec())), 1..4)) {
            let mut text = b"[(time: 0.5, value: [1.0, -2e3]), (value: [3.25], time: 1, bias: -0.5,),]".to_vec();
            for (at, op, byte) in edits {
                let i = at.index(text.len() + 1);
                match op {
                    0 => text.insert(i, byte),
                    1 if i < text.len() => { text.remove(i); }
                    _ if i < text.len() => text[i] = byte,
                    _ => {}
                }
            }
            let text = String::from_utf8(text).unwrap();
            if let Some((fast, end)) = parse_key_list(&text, 0) {
                prop_assert_eq!(Ok(fast), ron_keys(&text[..end]).map_err(|e| e.to_string()), "{}", text);
            }
        }
    }
}
