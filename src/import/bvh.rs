//! BVH (Biovision Hierarchy) motion capture: the joint hierarchy becomes the project's
//! [`Skeleton`], each joint's channels two tracks, one key per frame at `frame × Frame Time`:
//!
//! - position channels → `JOINT.translation` (Vec3, file units, Linear): the joint's
//!   translation from its parent, replacing its `OFFSET` (a component without a channel keeps
//!   the offset's);
//! - rotation channels → `JOINT.rotation` (Euler, radians from the file's degrees, Linear).
//!   BVH lists rotation channels so that `Zrotation Xrotation Yrotation` is
//!   `R = Rz·Rx·Ry` for column vectors: the last listed is applied first, so the track's
//!   order (Blender's meaning, first applied first) is the list reversed, `YXZ`. An axis
//!   without a channel is 0.
//!
//! The hierarchy is read token by token (spaces, tabs, CR and LF alike), so any layout works;
//! the motion is one line per frame, parsed on every core in chunks between progress
//! reports. A file that ends early, a word where a number belongs, or a frame with too few or
//! too many values is an error naming the line, the column and what was expected.

use rayon::prelude::*;

use super::{Ctx, ImportError, Read};
use crate::euler::EulerOrder;
use crate::model::{Binding, Columns, GltfProperty, Interpolation, Joint, Skeleton, Track, TrackKind};
use std::sync::Arc;

/// One channel of a joint: what it moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Channel {
    Position(usize),
    Rotation(usize),
}

impl Channel {
    fn parse(word: &str) -> Option<Self> {
        let axis = match word.as_bytes().first()?.to_ascii_uppercase() {
            b'X' => 0,
            b'Y' => 1,
            b'Z' => 2,
            _ => return None,
        };
        match word[1..].to_ascii_lowercase().as_str() {
            "position" => Some(Self::Position(axis)),
            "rotation" => Some(Self::Rotation(axis)),
            _ => None,
        }
    }
}

/// A joint as read: its place in the skeleton and where its channels are in a frame.
struct JointChannels {
    channels: Vec<Channel>,
    /// Index of the joint's first channel in a frame's values.
    first: usize,
}

/// The text as whitespace-separated words with their line and column (1-based).
struct Words<'a> {
    text: &'a str,
    pos: usize,
    line: usize,
    line_start: usize,
    path: &'a str,
}

impl<'a> Words<'a> {
    fn skip_space(&mut self) {
        let bytes = self.text.as_bytes();
        while let Some(&b) = bytes.get(self.pos) {
            if b == b'\n' {
                self.line += 1;
                self.line_start = self.pos + 1;
            } else if !b.is_ascii_whitespace() {
                break;
            }
            self.pos += 1;
        }
    }

    fn at(&self) -> (usize, usize) {
        (self.line, self.pos - self.line_start + 1)
    }

    fn error(&self, (line, column): (usize, usize), message: impl Into<String>) -> ImportError {
        ImportError::Syntax { path: self.path.to_owned(), line, column, message: message.into() }
    }

    /// The next word, or an error saying what was expected where the file ended.
    fn next(&mut self, expected: &str) -> Result<(&'a str, (usize, usize)), ImportError> {
        self.skip_space();
        let at = self.at();
        let start = self.pos;
        let bytes = self.text.as_bytes();
        while self.pos < bytes.len() && !bytes[self.pos].is_ascii_whitespace() {
            self.pos += 1;
        }
        if start == self.pos {
            return Err(self.error(at, format!("the file ends where {expected} was expected")));
        }
        Ok((&self.text[start..self.pos], at))
    }

    /// The next word, which must be `word` (any case).
    fn expect(&mut self, word: &str) -> Result<(), ImportError> {
        let (found, at) = self.next(&format!("`{word}`"))?;
        if found.eq_ignore_ascii_case(word) {
            Ok(())
        } else {
            Err(self.error(at, format!("expected `{word}`, found `{found}`")))
        }
    }

    fn number(&mut self, what: &str) -> Result<f64, ImportError> {
        let (word, at) = self.next(what)?;
        match word.parse::<f64>() {
            Ok(x) if x.is_finite() => Ok(x),
            _ => Err(self.error(at, format!("expected {what}, found `{word}`"))),
        }
    }

    /// The rest of the line, trimmed (a joint's name may hold spaces).
    fn rest_of_line(&mut self, what: &str) -> Result<(String, (usize, usize)), ImportError> {
        let bytes = self.text.as_bytes();
        while self.pos < bytes.len() && (bytes[self.pos] == b' ' || bytes[self.pos] == b'\t') {
            self.pos += 1;
        }
        let at = self.at();
        let end = self.text[self.pos..].find(['\n', '\r']).map_or(self.text.len(), |i| self.pos + i);
        let name = self.text[self.pos..end].trim().to_owned();
        if name.is_empty() {
            return Err(self.error(at, format!("expected {what}")));
        }
        self.pos = end;
        Ok((name, at))
    }
}

/// The hierarchy: the skeleton, each joint's channels, and the channel count of a frame.
fn hierarchy(words: &mut Words<'_>) -> Result<(Skeleton, Vec<JointChannels>, usize), ImportError> {
    words.expect("HIERARCHY")?;
    let mut skeleton = Skeleton::default();
    let mut joints: Vec<JointChannels> = Vec::new();
    let mut total = 0;
    // The joints whose `{` is open, innermost last; `None` for an End Site.
    let mut open: Vec<Option<usize>> = Vec::new();
    loop {
        let (word, at) = words.next("`ROOT`, `JOINT`, `End Site`, `}` or `MOTION`")?;
        match word.to_ascii_uppercase().as_str() {
            "ROOT" | "JOINT" => {
                let is_root = word.eq_ignore_ascii_case("ROOT");
                if is_root != open.is_empty() {
                    let expected = if open.is_empty() { "`ROOT` (a joint outside every joint)" } else { "`JOINT` (inside a joint)" };
                    return Err(words.error(at, format!("expected {expected}, found `{word}`")));
                }
                let (name, name_at) = words.rest_of_line("the joint's name")?;
                if skeleton.joint(&name).is_some() {
                    return Err(words.error(name_at, format!("a second joint named \"{name}\"; joint names must be unique")));
                }
                words.expect("{")?;
                words.expect("OFFSET")?;
                let offset = [words.number("the OFFSET's x")?, words.number("the OFFSET's y")?, words.number("the OFFSET's z")?];
                words.expect("CHANNELS")?;
                let (count_word, count_at) = words.next("the channel count")?;
                let count: usize = count_word.parse().map_err(|_| words.error(count_at, format!("expected the channel count, found `{count_word}`")))?;
                let mut channels = Vec::with_capacity(count);
                for _ in 0..count {
                    let (name, at) = words.next("a channel (Xposition … Zrotation)")?;
                    let channel = Channel::parse(name).ok_or_else(|| {
                        words.error(at, format!("expected a channel (Xposition, Yposition, Zposition, Xrotation, Yrotation or Zrotation), found `{name}`"))
                    })?;
                    if channels.contains(&channel) {
                        return Err(words.error(at, format!("the channel `{name}` is listed twice")));
                    }
                    channels.push(channel);
                }
                let parent = open.last().copied().flatten();
                skeleton.joints.push(Joint::new(name, parent, offset, None));
                joints.push(JointChannels { first: total, channels });
                total += count;
                open.push(Some(skeleton.joints.len() - 1));
            }
            "END" => {
                words.expect("Site")?;
                let Some(Some(parent)) = open.last().copied() else {
                    return Err(words.error(at, "an `End Site` outside a joint"));
                };
                words.expect("{")?;
                words.expect("OFFSET")?;
                let end = [words.number("the End Site's x")?, words.number("the End Site's y")?, words.number("the End Site's z")?];
                words.expect("}")?;
                skeleton.joints[parent].end_site = Some(end);
            }
            "}" => {
                if open.pop().is_none() {
                    return Err(words.error(at, "a `}` with no joint open"));
                }
            }
            "MOTION" => {
                if !open.is_empty() {
                    return Err(words.error(
                        at,
                        format!(
                            "`MOTION` before joint \"{}\" was closed with `}}`",
                            open.iter().rev().flatten().next().map_or("?", |&j| skeleton.joints[j].name.as_str())
                        ),
                    ));
                }
                if skeleton.joints.is_empty() {
                    return Err(words.error(at, "`MOTION` before any `ROOT`"));
                }
                return Ok((skeleton, joints, total));
            }
            _ => return Err(words.error(at, format!("expected `ROOT`, `JOINT`, `End Site`, `}}` or `MOTION`, found `{word}`"))),
        }
    }
}

/// Frames parsed between two progress reports.
const CHUNK_FRAMES: usize = 4096;

/// Parses one frame's line into `out` (`channels` values).
fn frame_values(line: &str, line_no: usize, channels: usize, out: &mut [f64], path: &str) -> Result<(), ImportError> {
    let mut n = 0;
    let mut column = 1;
    for word in line.split_ascii_whitespace() {
        // The column of this word: where it starts in the line.
        column = word.as_ptr() as usize - line.as_ptr() as usize + 1;
        let Some(slot) = out.get_mut(n) else {
            return Err(ImportError::Syntax {
                path: path.to_owned(),
                line: line_no,
                column,
                message: format!("more than the {channels} channel values a frame has"),
            });
        };
        *slot = match word.parse::<f64>() {
            Ok(x) if x.is_finite() => x,
            _ => {
                return Err(ImportError::Syntax {
                    path: path.to_owned(),
                    line: line_no,
                    column,
                    message: format!("expected a number (channel {} of {channels}), found `{word}`", n + 1),
                })
            }
        };
        n += 1;
    }
    if n < channels {
        return Err(ImportError::Syntax {
            path: path.to_owned(),
            line: line_no,
            column: column.max(1),
            message: format!("a frame has {channels} channel values, this line {n}"),
        });
    }
    Ok(())
}

/// `Frames:` and `Frame Time:`, then each frame's values, row by row.
fn motion(words: &mut Words<'_>, channels: usize, ctx: &Ctx<'_>) -> Result<(usize, f64, Vec<f64>), ImportError> {
    words.expect("Frames:")?;
    let (count, at) = words.next("the frame count")?;
    let frames: usize = count.parse().map_err(|_| words.error(at, format!("expected the frame count, found `{count}`")))?;
    words.expect("Frame")?;
    words.expect("Time:")?;
    let (word, at) = words.next("the frame time in seconds")?;
    let frame_time = word
        .parse::<f64>()
        .ok()
        .filter(|t| t.is_finite() && *t > 0.0)
        .ok_or_else(|| words.error(at, format!("expected the frame time in seconds (a positive number), found `{word}`")))?;
    // The rest of the Frame Time line, then one line per frame.
    let rest = &words.text[words.pos..];
    let body_start = rest.find('\n').map_or(rest.len(), |i| i + 1);
    let mut lines = rest[body_start..].lines().enumerate().map(|(i, l)| (words.line + 1 + i, l)).filter(|(_, l)| !l.trim().is_empty());
    let mut values = vec![0.0; frames * channels];
    let mut done = 0;
    for chunk in values.chunks_mut(CHUNK_FRAMES * channels.max(1)) {
        let rows = if channels == 0 { frames - done } else { chunk.len() / channels };
        let chunk_lines: Vec<(usize, &str)> = lines.by_ref().take(rows).collect();
        if chunk_lines.len() < rows {
            let line = chunk_lines.last().map_or(words.line, |(l, _)| *l);
            return Err(ImportError::Syntax {
                path: ctx.path.to_owned(),
                line,
                column: 1,
                message: format!("`Frames: {frames}` but the file ends after {} frames", done + chunk_lines.len()),
            });
        }
        chunk.par_chunks_mut(channels.max(1)).zip(chunk_lines.par_iter()).try_for_each(|(row, (no, line))| frame_values(line, *no, channels, row, ctx.path))?;
        done += rows;
        ctx.progress(done, frames)?;
        if channels == 0 {
            break;
        }
    }
    if let Some((line, _)) = lines.next() {
        return Err(ImportError::Syntax { path: ctx.path.to_owned(), line, column: 1, message: format!("more frames than `Frames: {frames}`") });
    }
    Ok((frames, frame_time, values))
}

/// One track of a joint: keys at `frame × frame_time`, each value built from a frame's row.
fn track(
    name: String,
    kind: TrackKind,
    order: EulerOrder,
    binding: Binding,
    frames: usize,
    frame_time: f64,
    value: impl Fn(usize) -> [f64; 3] + Sync,
) -> Track {
    // Held as columns from the start (a take's keys are plain): no key is made.
    let times: Arc<[f64]> = (0..frames).map(|f| f as f64 * frame_time).collect();
    let mut values = vec![0.0; frames * 3];
    values.par_chunks_mut(3).enumerate().for_each(|(f, v)| v.copy_from_slice(&value(f)));
    let keys = Columns::new(times, values.into(), 3).map_or_else(crate::model::Keys::new, Into::into);
    Track { order, binding: Some(binding), keys, ..Track::new(name, kind, Interpolation::Linear) }
}

/// Reads a BVH file (module docs).
pub(super) fn read(bytes: &[u8], ctx: &Ctx<'_>) -> Result<Read, ImportError> {
    let text = std::str::from_utf8(bytes).map_err(|e| ctx.invalid(format!("not UTF-8 text (byte {})", e.valid_up_to())))?;
    let text = text.trim_start_matches('\u{feff}');
    let mut words = Words { text, pos: 0, line: 1, line_start: 0, path: ctx.path };
    let (skeleton, joints, channels) = hierarchy(&mut words)?;
    let (frames, frame_time, values) = motion(&mut words, channels, ctx)?;
    if frames == 0 {
        return Err(ImportError::Empty { path: ctx.path.to_owned(), reason: "`Frames: 0`".to_owned() });
    }
    let animation = std::path::Path::new(ctx.path).file_stem().map_or_else(|| "take".to_owned(), |s| s.to_string_lossy().into_owned());
    let row = |f: usize| &values[f * channels..(f + 1) * channels];
    let mut tracks = Vec::new();
    for (joint, jc) in skeleton.joints.iter().zip(&joints) {
        let positions: Vec<(usize, usize)> =
            jc.channels.iter().enumerate().filter_map(|(i, c)| if let Channel::Position(a) = c { Some((i, *a)) } else { None }).collect();
        let rotations: Vec<(usize, usize)> =
            jc.channels.iter().enumerate().filter_map(|(i, c)| if let Channel::Rotation(a) = c { Some((i, *a)) } else { None }).collect();
        let binding = |property| Binding::Node { animation: animation.clone(), node: joint.name.clone(), property, element: None };
        if !positions.is_empty() {
            let offset = joint.offset;
            let first = jc.first;
            tracks.push(track(
                format!("{}.translation", joint.name),
                TrackKind::Vec3,
                EulerOrder::XYZ,
                binding(GltfProperty::Translation),
                frames,
                frame_time,
                |f| {
                    let mut v = offset;
                    for &(i, axis) in &positions {
                        v[axis] = row(f)[first + i];
                    }
                    v
                },
            ));
        }
        if !rotations.is_empty() {
            let order = order_of(&rotations);
            let first = jc.first;
            tracks.push(track(format!("{}.rotation", joint.name), TrackKind::Euler, order, binding(GltfProperty::Rotation), frames, frame_time, |f| {
                let mut v = [0.0; 3];
                for &(i, axis) in &rotations {
                    v[axis] = row(f)[first + i].to_radians();
                }
                v
            }));
        }
    }
    let warnings = Vec::new();
    // The project's rate: a whole number when the frame time is one rounded to the file's
    // six decimals (0.033333 s is 30.0003 fps, 0.008333 s is 120.0048).
    let rate = 1.0 / frame_time;
    let fps = if (rate - rate.round()).abs() <= 1e-4 * rate { rate.round() } else { rate };
    Ok(Read { tracks, warnings, skeleton: Some(skeleton), fps: Some(fps) })
}

/// The Euler order of rotation channels listed in this order: the last listed is applied
/// first, so the order is the list reversed; axes without a channel (angle 0) go last.
fn order_of(rotations: &[(usize, usize)]) -> EulerOrder {
    let listed: Vec<usize> = rotations.iter().rev().map(|&(_, a)| a).collect();
    let axes: Vec<usize> = listed.iter().copied().chain((0..3).filter(|a| !listed.contains(a))).collect();
    let name: String = axes.iter().map(|&a| ['X', 'Y', 'Z'][a]).collect();
    EulerOrder::parse(&name).unwrap_or_default()
}

#[cfg(test)]
#[path = "bvh_tests.rs"]
mod tests;
