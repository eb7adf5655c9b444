//! Writing a big project fast: the text of [`crate::io::project_to_string`] for projects of
//! more than [`FAST_WRITE_KEYS`] keys, with each track's key list formatted by hand, on every
//! core, in the plain form [`crate::ron_keys`] reads back fast:
//! `(time: 0.5, value: [1.0, 2.0, 3.0]),` — numbers in their shortest round-trip form (the
//! `ryu` crate: `0.1`, `1e-7`, `-0.0`), which RON parses to the same `f64`. A key with anything besides time and value
//! (TCB, ease, handles) is written by RON itself. Everything but the key lists (the project's
//! fields, each track's fields, the skeleton) is RON's pretty text, so the file reads as a
//! smaller project's does. RON's serializer costs about a microsecond a key: a 7.2-million-key
//! motion-capture take took 7 s to write; this takes a fraction of that.

use rayon::prelude::*;

use crate::model::{Key, Project, Track};

/// Above this many keys in all, [`crate::io::project_to_string`] writes key lists itself.
pub const FAST_WRITE_KEYS: usize = 100_000;

/// RON's pretty settings for every part written by RON.
pub(crate) fn pretty() -> ron::ser::PrettyConfig {
    ron::ser::PrettyConfig::new().depth_limit(4).indentor("    ".to_owned()).struct_names(false)
}

/// A key holding only `time` and `value` on one line, `indent` before it, a comma and a newline
/// after.
fn write_plain(out: &mut String, time: f64, value: &[f64], indent: &str) {
    let mut buffer = ryu::Buffer::new();
    out.push_str(indent);
    out.push_str("(time: ");
    out.push_str(buffer.format_finite(time));
    out.push_str(", value: [");
    for (i, &v) in value.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        out.push_str(buffer.format_finite(v));
    }
    out.push_str("]),\n");
}

/// One key on one line, `indent` before it, a comma and a newline after.
fn write_key(out: &mut String, key: &Key, indent: &str) -> Result<(), ron::Error> {
    if key.is_plain() {
        write_plain(out, key.time, &key.value, indent);
    } else {
        out.push_str(indent);
        out.push_str(&ron::to_string(key)?);
        out.push_str(",\n");
    }
    Ok(())
}

/// A track as its element of the `tracks` list: RON's text of its fields, its keys by hand,
/// every line indented by `indent`.
fn track_text(track: &Track, indent: &str) -> Result<String, ron::Error> {
    let head = ron::ser::to_string_pretty(&track.with_other_keys(Vec::new()), pretty())?;
    // `keys` is the last field: RON wrote `keys: [],` before the closing parenthesis.
    let at = head.rfind("keys: []").ok_or_else(|| ron::Error::Message("a track without its keys field".to_owned()))?;
    let (before, after) = (&head[..at], &head[at + "keys: []".len()..]);
    // About 30 bytes of text a key besides its numbers, 24 at most a number.
    let mut out = String::with_capacity(track.keys.len() * (32 + 24 * (1 + track.kind.dim())) + head.len() * 2);
    for line in before.lines() {
        out.push_str(indent);
        out.push_str(line);
        out.push('\n');
    }
    // `before` ends with the indentation of the `keys` line; put it back without a newline.
    out.pop();
    out.push_str("keys: [\n");
    let key_indent = format!("{indent}        ");
    if let Some(c) = track.keys.columns() {
        for i in 0..c.len() {
            write_plain(&mut out, c.times[i], c.value(i), &key_indent);
        }
    } else {
        for key in track.keys.iter() {
            write_key(&mut out, key, &key_indent)?;
        }
    }
    out.push_str(indent);
    out.push_str("    ]");
    let mut rest = after.lines();
    if let Some(first) = rest.next() {
        out.push_str(first);
    }
    for line in rest {
        out.push('\n');
        out.push_str(indent);
        out.push_str(line);
    }
    Ok(out)
}

/// The project's text (module docs): `header` is RON's text of the project with an empty
/// track list, which this fills.
pub(crate) fn with_tracks(header: &str, project: &Project) -> Result<String, ron::Error> {
    let at = header.find("tracks: []").ok_or_else(|| ron::Error::Message("a project without its tracks field".to_owned()))?;
    let tracks: Vec<String> = project.tracks.par_iter().map(|t| track_text(t, "        ")).collect::<Result<_, _>>()?;
    let mut out = String::with_capacity(header.len() + tracks.iter().map(String::len).sum::<usize>() + 2 * tracks.len() + 16);
    out.push_str(&header[..at]);
    out.push_str("tracks: [\n");
    for t in &tracks {
        out.push_str(t);
        out.push_str(",\n");
    }
    out.push_str("    ]");
    out.push_str(&header[at + "tracks: []".len()..]);
    Ok(out)
}

/// Tracks formatted at a time before they are written by [`write_with_tracks`]: enough for
/// every core, few enough that the text in memory stays small (16 tracks of 36,000 keys: 50 MB).
const TRACKS_AT_A_TIME: usize = 16;

/// [`with_tracks`], written to `out` as the tracks are formatted (a few at a time, on every
/// core), so a big project's text is never whole in memory.
pub(crate) fn write_with_tracks(header: &str, project: &Project, out: &mut dyn std::io::Write) -> std::io::Result<()> {
    let invalid = |e: ron::Error| std::io::Error::new(std::io::ErrorKind::InvalidData, e.to_string());
    let at = header.find("tracks: []").ok_or_else(|| invalid(ron::Error::Message("a project without its tracks field".to_owned())))?;
    out.write_all(header[..at].as_bytes())?;
    out.write_all(b"tracks: [\n")?;
    for chunk in project.tracks.chunks(TRACKS_AT_A_TIME) {
        let texts: Vec<String> = chunk.par_iter().map(|t| track_text(t, "        ")).collect::<Result<_, _>>().map_err(invalid)?;
        for t in texts {
            out.write_all(t.as_bytes())?;
            out.write_all(b",\n")?;
        }
    }
    out.write_all(b"    ]")?;
    out.write_all(header[at + "tracks: []".len()..].as_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Binding, GltfProperty, HandleType, Interpolation, TrackKind};

    /// A project written by hand reads back equal through both readers (the split fast path
    /// and RON's own parse of the whole text), with plain keys, keys with TCB and handles,
    /// awkward numbers (−0.0, 1e-300, 1e300, 0.1 + 0.2), a binding and a skeleton.
    #[test]
    fn the_fast_text_reads_back_equal() {
        let plain_keys: Vec<Key> =
            [0.0, 0.1 + 0.2, 1e-300, 1e300, -0.0].iter().enumerate().map(|(i, &v)| Key::new(i as f64 * 0.25, vec![v, -v, 1.0 / 3.0])).collect();
        let mut fancy = plain_keys.clone();
        fancy[1].tension = 0.5;
        fancy[2] = fancy[2].clone().with_handles((HandleType::Free, HandleType::Vector), vec![(-0.1, 0.2); 3], vec![]);
        let a = Track {
            binding: Some(Binding::Node { animation: "take".into(), node: "Hips \"L\"".into(), property: GltfProperty::Rotation, element: None }),
            ..Track::new("keys: []", TrackKind::Vec3, Interpolation::Linear).with_keys(plain_keys)
        };
        let b = Track::new("b", TrackKind::Vec3, Interpolation::Bezier).with_keys(fancy);
        let skeleton = crate::model::Skeleton { joints: vec![crate::model::Joint::new("Hips", None, [0.0, 1.0, 0.0], Some([0.0, 0.5, 0.0]))] };
        let project = Project { version: 3, fps: 120.0, tracks: vec![a, b], skeleton: Some(skeleton), export: None };
        let header = ron::ser::to_string_pretty(&Project { tracks: Vec::new(), ..project.clone() }, pretty()).unwrap();
        let text = with_tracks(&header, &project).unwrap();
        let mut streamed = Vec::new();
        write_with_tracks(&header, &project, &mut streamed).unwrap();
        assert_eq!(String::from_utf8(streamed).unwrap(), text, "written as it is formatted, the same text");
        assert!(text.contains("(time: 0.25, value: [0.30000000000000004, -0.30000000000000004, 0.3333333333333333]),"), "{text}");
        let options = ron::Options::default().with_default_extension(ron::extensions::Extensions::IMPLICIT_SOME);
        let by_ron: Project = options.from_str(&text).unwrap();
        assert_eq!(by_ron, project);
        let split =
            crate::ron_split::parse_split(&format!("{text}{}", " ".repeat(crate::ron_split::SPLIT_BYTES)), &options).expect("the split reader takes it");
        assert_eq!(split, project);
    }
}
