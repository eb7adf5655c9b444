//! Parsing a big project file on every core: the RON text is cut at its tracks, and each
//! track is parsed on its own (a mocap take is hundreds of tracks of thousands of keys, and
//! parsing is most of the time it takes to open one).
//!
//! The cut is found by a scanner that knows only what can hide a bracket or a comma in RON:
//! strings (with escapes), raw strings `r#"…"#`, character literals and comments (`//` and
//! nested `/* */`). It finds the `tracks: [ … ]` field of the top-level struct and the byte
//! range of each element. Within a track, the `keys` list goes to the fast path of
//! [`crate::ron_keys`] when it is in the plain form. The rest of the file — with an empty
//! track list — and every track are then parsed with the same options as the whole file
//! would be. Whenever something is unusual (an `#![enable]` attribute, no `tracks` list, any
//! part failing to parse, an unknown field included) the caller parses the whole text as one,
//! so error messages keep their line and column.

use rayon::prelude::*;

use crate::model::{Project, Track};

/// Below this size the whole text is parsed as one (splitting would not pay).
pub const SPLIT_BYTES: usize = 1 << 20;

/// `text` parsed with `options` on every core, or `None` if it should be parsed as one.
pub fn parse_split(text: &str, options: &ron::Options) -> Option<Project> {
    if text.len() < SPLIT_BYTES || text.trim_start().starts_with("#!") {
        return None;
    }
    let (list, elements) = split_tracks(text)?;
    let header = format!("{}[]{}", &text[..list.start], &text[list.end..]);
    let mut project: Project = options.from_str(&header).ok()?;
    let tracks: Vec<Option<Track>> = elements.par_iter().map(|r| parse_track(&text[r.clone()], options)).collect();
    project.tracks = tracks.into_iter().collect::<Option<Vec<Track>>>()?;
    Some(project)
}

/// The byte range of the top-level `tracks` list (brackets included) and of each element.
pub fn split_tracks(text: &str) -> Option<(std::ops::Range<usize>, Vec<std::ops::Range<usize>>)> {
    let open = field_list_start(text, "tracks")?;
    Scanner { b: text.as_bytes(), i: open }.list_elements()
}

/// A track parsed with RON, but for its key list when that is in the plain form
/// ([`crate::ron_keys`]): the track is parsed with `keys: []` and given the keys read fast.
fn parse_track(text: &str, options: &ron::Options) -> Option<Track> {
    let open = field_list_start(text, "keys");
    if let Some((keys, end)) = open.and_then(|open| crate::ron_keys::parse_key_list(text, open)) {
        let header = format!("{}[]{}", &text[..open?], &text[end..]);
        let mut track: Track = options.from_str(&header).ok()?;
        track.keys = keys.into();
        return Some(track);
    }
    options.from_str(text).ok()
}

/// Where the list of the field `name` of the first top-level struct in `text` opens (the
/// index of its `[`), if there is such a field and its value is a list.
fn field_list_start(text: &str, name: &str) -> Option<usize> {
    let b = text.as_bytes();
    let mut s = Scanner { b, i: 0 };
    // The top-level struct: an optional name, then `(`.
    while s.i < b.len() && b[s.i] != b'(' {
        s.skip_trivia();
        if s.i < b.len() && b[s.i] != b'(' {
            s.i += 1;
        }
    }
    s.i += 1;
    let mut depth = 1usize;
    while s.i < b.len() {
        s.skip_trivia();
        let Some(&c) = b.get(s.i) else { break };
        if depth == 1 && text[s.i..].starts_with(name) && !b.get(s.i.wrapping_sub(1)).is_some_and(|p| is_ident(*p)) {
            s.i += name.len();
            if b.get(s.i).is_some_and(|c| is_ident(*c)) {
                continue;
            }
            s.skip_trivia();
            if b.get(s.i) != Some(&b':') {
                return None;
            }
            s.i += 1;
            s.skip_trivia();
            return (b.get(s.i) == Some(&b'[')).then_some(s.i);
        }
        match c {
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' => depth = depth.checked_sub(1)?,
            _ => {}
        }
        s.skip_token();
    }
    None
}

/// The bytes the list scan stops at between elements: brackets, commas, quotes, comment and
/// raw-string starts.
const SPECIAL: [bool; 256] = byte_set(b"\"'/()[]{},r");
/// The bytes the list scan stops at within an element: the same but commas.
const SPECIAL_NESTED: [bool; 256] = byte_set(b"\"'/()[]{}r");

const fn byte_set(bytes: &[u8]) -> [bool; 256] {
    let mut t = [false; 256];
    let mut k = 0;
    while k < bytes.len() {
        t[bytes[k] as usize] = true;
        k += 1;
    }
    t
}

/// `range` without leading and trailing ASCII whitespace.
fn trim(b: &[u8], mut range: std::ops::Range<usize>) -> std::ops::Range<usize> {
    while range.start < range.end && b[range.start].is_ascii_whitespace() {
        range.start += 1;
    }
    while range.end > range.start && b[range.end - 1].is_ascii_whitespace() {
        range.end -= 1;
    }
    range
}

fn is_ident(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_'
}

struct Scanner<'a> {
    b: &'a [u8],
    i: usize,
}

impl Scanner<'_> {
    /// At `[`: the list's range and its elements' ranges (without surrounding whitespace).
    /// Bytes that cannot start a string, comment or bracket are skipped in a tight loop: the
    /// scan runs at memory speed over hundreds of MB of numbers.
    fn list_elements(&mut self) -> Option<(std::ops::Range<usize>, Vec<std::ops::Range<usize>>)> {
        let open = self.i;
        self.i += 1;
        let mut elements = Vec::new();
        let mut depth = 0usize;
        let mut start = self.i;
        loop {
            if depth > 0 {
                self.skip_nested_blocks(&mut depth);
            }
            // Within an element only brackets and what can hide one matter, not commas.
            let special = if depth == 0 { &SPECIAL } else { &SPECIAL_NESTED };
            let rest = &self.b[self.i..];
            self.i += rest.iter().position(|&c| special[usize::from(c)]).unwrap_or(rest.len());
            let c = *self.b.get(self.i)?;
            match c {
                b',' | b']' if depth == 0 => {
                    let element = trim(self.b, start..self.i);
                    if !element.is_empty() {
                        elements.push(element);
                    }
                    self.i += 1;
                    if c == b']' {
                        return Some((open..self.i, elements));
                    }
                    start = self.i;
                }
                b'(' | b'[' | b'{' => {
                    depth += 1;
                    self.i += 1;
                }
                b')' | b']' | b'}' => {
                    depth = depth.checked_sub(1)?;
                    self.i += 1;
                }
                b'/' if matches!(self.b.get(self.i + 1), Some(b'/' | b'*')) => self.skip_trivia(),
                _ => self.skip_token(),
            }
        }
    }

    /// Within an element (`depth` ≥ 1): past every whole 32-byte block that holds no quote,
    /// `/` or `r` (nothing that could hide a bracket) and too few closing brackets to end the
    /// element, counting its brackets into `depth`. The comparisons vectorize: a key list is
    /// scanned ~3× faster than byte by byte.
    fn skip_nested_blocks(&mut self, depth: &mut usize) {
        const BLOCK: usize = 32;
        while let Some(block) = self.b.get(self.i..self.i + BLOCK) {
            let (mut hazard, mut opens, mut closes) = (false, 0u8, 0u8);
            for &c in block {
                hazard |= matches!(c, b'"' | b'\'' | b'/' | b'r');
                opens += u8::from(matches!(c, b'(' | b'[' | b'{'));
                closes += u8::from(matches!(c, b')' | b']' | b'}'));
            }
            if hazard || usize::from(closes) >= *depth {
                return;
            }
            *depth = *depth + usize::from(opens) - usize::from(closes);
            self.i += BLOCK;
        }
    }

    /// Past whitespace and comments.
    fn skip_trivia(&mut self) {
        loop {
            while self.b.get(self.i).is_some_and(u8::is_ascii_whitespace) {
                self.i += 1;
            }
            match (self.b.get(self.i), self.b.get(self.i + 1)) {
                (Some(b'/'), Some(b'/')) => {
                    while self.b.get(self.i).is_some_and(|&c| c != b'\n') {
                        self.i += 1;
                    }
                }
                (Some(b'/'), Some(b'*')) => self.skip_block_comment(),
                _ => return,
            }
        }
    }

    /// Past a `/* … */` comment, nested ones included (RON nests them).
    fn skip_block_comment(&mut self) {
        let mut depth = 0usize;
        while self.i < self.b.len() {
            match (self.b[self.i], self.b.get(self.i + 1)) {
                (b'/', Some(b'*')) => {
                    depth += 1;
                    self.i += 2;
                }
                (b'*', Some(b'/')) => {
                    depth -= 1;
                    self.i += 2;
                    if depth == 0 {
                        return;
                    }
                }
                _ => self.i += 1,
            }
        }
    }

    /// Past one token: a string, raw string, character literal, or a single byte.
    fn skip_token(&mut self) {
        let b = self.b;
        match b[self.i] {
            b'"' => self.skip_quoted(b'"'),
            b'\'' => self.skip_quoted(b'\''),
            b'r' if matches!(b.get(self.i + 1), Some(b'"' | b'#')) && !b.get(self.i.wrapping_sub(1)).is_some_and(|p| is_ident(*p)) => {
                let hashes = b[self.i + 1..].iter().take_while(|&&c| c == b'#').count();
                self.i += 1 + hashes;
                if b.get(self.i) != Some(&b'"') {
                    return;
                }
                self.i += 1;
                let close: Vec<u8> = std::iter::once(b'"').chain(std::iter::repeat_n(b'#', hashes)).collect();
                while self.i < b.len() && !b[self.i..].starts_with(&close) {
                    self.i += 1;
                }
                self.i = (self.i + close.len()).min(b.len());
            }
            _ => self.i += 1,
        }
    }

    /// Past a quoted string or character, escapes included.
    fn skip_quoted(&mut self, quote: u8) {
        self.i += 1;
        while let Some(&c) = self.b.get(self.i) {
            self.i += if c == b'\\' { 2 } else { 1 };
            if c == quote {
                return;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Hand-checked: the two elements of `tracks` in a text whose strings and comments hold
    /// brackets, commas and the word `tracks`.
    #[test]
    fn the_scanner_finds_each_track_past_strings_and_comments() {
        let text = r##"Project( // tracks: [
    version: 1, /* nested /* ] */ , */ fps: 30.0,
    tracks: [ (name: "a, ]) tracks", x: 'c'), (name: r#"b "]" ,"#, y: [1, 2]) , ],
)"##;
        let (list, elements) = split_tracks(text).unwrap();
        assert!(text[list.clone()].starts_with('[') && text[list].ends_with(']'));
        let parts: Vec<&str> = elements.iter().map(|r| &text[r.clone()]).collect();
        assert_eq!(parts, vec![r#"(name: "a, ]) tracks", x: 'c')"#, r##"(name: r#"b "]" ,"#, y: [1, 2])"##]);
    }

    #[test]
    fn no_tracks_field_means_no_split() {
        assert_eq!(split_tracks("(version: 1, fps: 30.0, tracked: [(a: 1)])"), None);
        assert_eq!(split_tracks("(version: 1, fps: 30.0, tracks: ["), None);
    }

    /// A 2 MB project (names with quotes, brackets and commas; Bezier, TCB and Quat tracks)
    /// parsed track by track is the project RON's own parse of the whole text gives.
    #[test]
    fn a_split_parse_equals_the_whole_parse() {
        use crate::{Interpolation, Key, TrackKind};
        let tracks = (0..12)
            .map(|t| {
                let (kind, mode) =
                    [(TrackKind::Vec3, Interpolation::Tcb), (TrackKind::Scalar, Interpolation::Bezier), (TrackKind::Quat, Interpolation::Slerp)][t % 3];
                let keys =
                    (0..1500).map(|i| Key::new(f64::from(i) / 30.0, (0..kind.dim()).map(|c| (f64::from(i) * 0.1 + c as f64).sin() + 1.5).collect())).collect();
                Track::new(format!("bone{t} \"x, ]\" /* y */.rot"), kind, mode).with_keys(keys)
            })
            .collect();
        let project = Project { tracks, ..Project::default() };
        let text = crate::io::project_to_string(&project).unwrap();
        assert!(text.len() > SPLIT_BYTES, "{} bytes", text.len());
        let options = ron::Options::default().with_default_extension(ron::extensions::Extensions::IMPLICIT_SOME);
        let whole: Project = options.from_str(&text).unwrap();
        let split = parse_split(&text, &options).expect("split");
        assert_eq!(split, whole);
        assert_eq!(split.tracks.len(), 12);
    }

    /// An error in one track of a big file is reported where RON's whole parse reports it.
    #[test]
    fn an_error_in_a_big_file_keeps_its_line_and_column() {
        use crate::{Interpolation, Key, TrackKind};
        let keys: Vec<Key> = (0..20_000).map(|i| Key::new(f64::from(i), vec![f64::from(i).sin()])).collect();
        let tracks = (0..3).map(|t| Track::new(format!("t{t}"), TrackKind::Scalar, Interpolation::Linear).with_keys(keys.clone())).collect();
        let text = crate::io::project_to_string(&Project { tracks, ..Project::default() }).unwrap();
        let at = text.rfind("time: 12345.0").unwrap();
        let bad = format!("{}time: 12345.0.0{}", &text[..at], &text[at + "time: 12345.0".len()..]);
        let whole = ron::Options::default().from_str::<Project>(&bad).unwrap_err();
        match crate::io::parse_project(&bad, "big.ron") {
            Err(crate::FileError::Syntax { line, column, .. }) => assert_eq!((line, column), (whole.span.start.line, whole.span.start.col)),
            other => panic!("{other:?}"),
        }
    }

    /// RON-like text built from random parts, with the byte range of every part it holds.
    fn element_text(parts: &[(u8, String)]) -> String {
        let mut out = String::from("(");
        for (kind, body) in parts {
            match kind % 6 {
                0 => out.push_str(&format!("\"{}\", ", body.replace('\\', "\\\\").replace('"', "\\\""))),
                1 => out.push_str(&format!("r#\"{}\"#, ", body.replace('#', ""))),
                2 => out.push_str(&format!("/* {} */ ", body.replace('*', ""))),
                3 => out.push_str(&format!("[[({body:?})], [1.5, -2e3]], ")),
                4 => out.push_str("(time: 0.25, value: [1.0, 2.0, 3.0]), "),
                _ => out.push_str(&format!("{}: ((((()))))[], ", body.len())),
            }
        }
        out.push(')');
        out
    }

    proptest::proptest! {
        /// The cut finds exactly the elements the text was built from, whatever brackets,
        /// commas and quotes their strings and comments hold and however deep they nest.
        #[test]
        fn the_cut_finds_the_elements_it_was_built_from(
            elements in proptest::collection::vec(proptest::collection::vec((0u8..6, "[\\[\\](){},/*\"'r#a ]{0,40}"), 0..30), 1..8),
        ) {
            let mut text = String::from("Project(version: 1, fps: 30.0, tracks: [\n");
            let mut expected = Vec::new();
            for parts in &elements {
                let start = text.len();
                text.push_str(&element_text(parts));
                expected.push(start..text.len());
                text.push_str(" ,\n  ");
            }
            text.push_str("])");
            let (_, found) = split_tracks(&text).expect("a tracks list");
            proptest::prop_assert_eq!(found, expected, "{}", text);
        }
    }
}
