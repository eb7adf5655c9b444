//! Import of animation other programs wrote (SPEC §11): glTF 2.0 (`.gltf`, `.glb`), three.js
//! clip JSON (`AnimationClip.toJSON`), CSV, BVH motion capture and FBX, with exact values and tangents wherever the
//! source has them. One entry point, [`import_path`], for the editor and the command line;
//! the kind is chosen by the file's extension from one table, [`IMPORT_KINDS`], and an
//! extension it does not list is refused with the list.
//!
//! | source | track | interpolation |
//! |---|---|---|
//! | glTF STEP / LINEAR / CUBICSPLINE | `NODE.translation`, `.rotation`, `.scale`, `.weights[i]`, and the node hierarchy as the skeleton ([`gltf_skeleton`]) | Step / Linear (Slerp for rotation) / Bezier, Free handles at thirds ([`gltf`]) |
//! | three.js Discrete / Linear / Smooth / Bezier | the track's name | Step / Linear (Slerp) / Cubic / Bezier, Free handles ([`three`]) |
//! | CSV | `NAME` from `NAME.x`, `NAME.y`, … or a column's header | Linear ([`csv`]) |
//! | BVH motion capture | `JOINT.translation` (Vec3), `JOINT.rotation` (Euler in the channels' order), and the skeleton | Linear, a key per frame ([`bvh`]) |
//! | FBX (through ufbx) | `NODE.translation`, `.rotation` (Euler in the node's order), `.scale`, `.weights[i]`, and the node hierarchy as the skeleton ([`fbx_skeleton`]) | Step / Linear / Bezier with Free handles from FBX's tangents ([`fbx`]) |
//!
//! Every imported track remembers its [`Binding`] (glTF node and property, three.js property
//! path), so export writes it back where it came from. Nothing is half-imported: the whole
//! file is read and every track validated before [`Imported`] is returned. What the model
//! cannot hold (a `KHR_animation_pointer` channel, a three.js string track, …) is named in
//! [`ImportReport::warnings`], never dropped silently.

mod bvh;
mod csv;
mod fbx;
mod fbx_skeleton;
mod gltf;
mod gltf_check;
mod gltf_skeleton;
mod three;

use std::fmt;
use std::path::Path;

use thiserror::Error;

use crate::error::ProjectError;
use crate::model::{Binding, Interpolation, Project, Track, TrackKind};

/// A file format Tangent imports.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ImportFormat {
    /// glTF 2.0 JSON, with its buffers embedded or in files beside it.
    Gltf,
    /// Binary glTF.
    Glb,
    /// three.js `AnimationClip.toJSON` (one clip, a list of clips, or an object with
    /// `animations`).
    ThreeJson,
    /// Comma-separated values with a `time` column first.
    Csv,
    /// Biovision Hierarchy motion capture: a joint hierarchy and a frame of channel values
    /// per line.
    Bvh,
    /// Autodesk FBX, binary or ASCII (read by ufbx): animation stacks of node transforms and
    /// blend shape weights.
    Fbx,
}

impl ImportFormat {
    pub const ALL: [ImportFormat; 6] = [Self::Gltf, Self::Glb, Self::ThreeJson, Self::Csv, Self::Bvh, Self::Fbx];

    /// The format a file's extension names (any case) in [`IMPORT_KINDS`], if it names one.
    #[must_use]
    pub fn from_path(path: &Path) -> Option<Self> {
        import_kind(path).map(|k| k.format)
    }

    /// The format the bytes look like: GLB magic, binary FBX's (`Kaydara FBX Binary`), ASCII
    /// FBX (`; FBX` first, or `FBXHeaderExtension` early), BVH's `HIERARCHY`, a glTF JSON
    /// (`"asset"`), other JSON, else CSV.
    #[must_use]
    pub fn sniff(bytes: &[u8]) -> Self {
        if bytes.starts_with(b"glTF") {
            return Self::Glb;
        }
        if bytes.starts_with(b"Kaydara FBX Binary") {
            return Self::Fbx;
        }
        let text = String::from_utf8_lossy(&bytes[..bytes.len().min(4096)]);
        let trimmed = text.trim_start_matches('\u{feff}').trim_start();
        if trimmed.starts_with("; FBX") || text.contains("FBXHeaderExtension") {
            return Self::Fbx;
        }
        if trimmed.starts_with("HIERARCHY") {
            return Self::Bvh;
        }
        if trimmed.starts_with('{') || trimmed.starts_with('[') {
            if trimmed.contains("\"asset\"") {
                Self::Gltf
            } else {
                Self::ThreeJson
            }
        } else {
            Self::Csv
        }
    }

    /// What the user sees: `glTF`, `GLB`, `three.js JSON`, `CSV`.
    #[must_use]
    pub fn label(self) -> &'static str {
        match self {
            Self::Gltf => "glTF",
            Self::Glb => "GLB",
            Self::ThreeJson => "three.js JSON",
            Self::Csv => "CSV",
            Self::Bvh => "BVH",
            Self::Fbx => "FBX",
        }
    }
}

/// One kind of file Tangent imports: a row of [`IMPORT_KINDS`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ImportKind {
    /// The file name's extension, lower case, without the dot.
    pub extension: &'static str,
    pub format: ImportFormat,
    /// What the user calls the kind, said once after a run of rows that share it (`glTF`);
    /// empty where the extension says it all (`csv`).
    pub described: &'static str,
}

/// The kinds of file Tangent imports, by extension: the one table that import by path, the
/// command line and the editor's "open any file" read (a new kind, `.bvh`, is one row here and
/// its reader in [`import_bytes`]).
pub const IMPORT_KINDS: [ImportKind; 6] = [
    ImportKind { extension: "glb", format: ImportFormat::Glb, described: "glTF" },
    ImportKind { extension: "gltf", format: ImportFormat::Gltf, described: "glTF" },
    ImportKind { extension: "json", format: ImportFormat::ThreeJson, described: "three.js clip" },
    ImportKind { extension: "csv", format: ImportFormat::Csv, described: "" },
    ImportKind { extension: "bvh", format: ImportFormat::Bvh, described: "motion capture" },
    ImportKind { extension: "fbx", format: ImportFormat::Fbx, described: "FBX" },
];

/// The row of [`IMPORT_KINDS`] that `path`'s extension (any case) names, if any.
#[must_use]
pub fn import_kind(path: &Path) -> Option<&'static ImportKind> {
    let ext = path.extension()?.to_str()?;
    IMPORT_KINDS.iter().find(|k| k.extension.eq_ignore_ascii_case(ext))
}

/// The kinds [`IMPORT_KINDS`] lists, as a sentence's end: `.glb, .gltf (glTF), .json (three.js
/// clip) and .csv`.
#[must_use]
pub fn import_kinds_list() -> String {
    let mut items: Vec<String> = Vec::new();
    for (i, kind) in IMPORT_KINDS.iter().enumerate() {
        let last_of_run = IMPORT_KINDS.get(i + 1).is_none_or(|next| next.described != kind.described);
        let described = if last_of_run && !kind.described.is_empty() { format!(" ({})", kind.described) } else { String::new() };
        items.push(format!(".{}{described}", kind.extension));
    }
    match items.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
        _ => items.concat(),
    }
}

/// The kinds [`IMPORT_KINDS`] lists, each by its format's name and extension, for help text:
/// `GLB (.glb), glTF (.gltf), three.js JSON (.json), CSV (.csv), BVH (.bvh), FBX (.fbx)`.
#[must_use]
pub fn import_kinds_named() -> String {
    IMPORT_KINDS.iter().map(|k| format!("{} (.{})", k.format.label(), k.extension)).collect::<Vec<_>>().join(", ")
}

/// What to import.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ImportOptions {
    /// Of several animations (glTF) or clips (three.js JSON), import only the one with this
    /// name (or label, `animation<i>` for an unnamed one), without the `NAME/` prefix.
    pub animation: Option<String>,
    /// Read the file as this format instead of choosing by extension ([`IMPORT_KINDS`]; a
    /// file whose extension names none is refused, [`ImportError::UnknownKind`]).
    pub format: Option<ImportFormat>,
}

/// One imported track, as the report lists it.
#[derive(Clone, Debug, PartialEq)]
pub struct ImportedTrack {
    pub name: String,
    pub kind: TrackKind,
    pub interpolation: Interpolation,
    pub keys: usize,
    /// Where it came from; `None` for CSV columns.
    pub binding: Option<Binding>,
}

/// What an import read, for the command line and the editor's message.
#[derive(Clone, Debug, PartialEq)]
pub struct ImportReport {
    /// The file, as given.
    pub path: String,
    pub format: ImportFormat,
    pub tracks: Vec<ImportedTrack>,
    /// What was left out or changed, one sentence each.
    pub warnings: Vec<String>,
}

impl fmt::Display for ImportReport {
    /// One line per track, `NAME\tKIND\tINTERPOLATION\tN keys\tTARGET`, then one
    /// `warning: …` line per warning.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for t in &self.tracks {
            let target = t.binding.as_ref().map_or_else(|| "-".to_owned(), ToString::to_string);
            writeln!(f, "{}\t{:?}\t{:?}\t{} keys\t{target}", t.name, t.kind, t.interpolation, t.keys)?;
        }
        for w in &self.warnings {
            writeln!(f, "warning: {w}")?;
        }
        Ok(())
    }
}

impl ImportReport {
    /// One line for a status bar: `walk.glb (GLB): 12 tracks, 1 warning`.
    #[must_use]
    pub fn summary(&self) -> String {
        let plural = |n: usize, word: &str| format!("{n} {word}{}", if n == 1 { "" } else { "s" });
        format!("{} ({}): {}, {}", self.path, self.format.label(), plural(self.tracks.len(), "track"), plural(self.warnings.len(), "warning"))
    }
}

/// A successful import: a new project holding the tracks, and what was read.
#[derive(Clone, Debug, PartialEq)]
pub struct Imported {
    pub project: Project,
    pub report: ImportReport,
}

/// Why a file could not be imported. Every message names the file and, where it can, the
/// place in it (line and column, row and column, animation and channel, track and key).
#[derive(Debug, Error)]
pub enum ImportError {
    /// The file's extension names no kind of [`IMPORT_KINDS`] (a `.fbx` read as CSV said only
    /// "invalid utf-8").
    #[error("cannot import `{path}`: Tangent imports {}", import_kinds_list())]
    UnknownKind { path: String },
    #[error("{path}: {error}")]
    Io { path: String, error: std::io::Error },
    #[error("{path}: {message}")]
    Invalid { path: String, message: String },
    #[error("{path}:{line}:{column}: {message}")]
    Syntax { path: String, line: usize, column: usize, message: String },
    #[error("{path}: row {row}, column {column} (\"{header}\"): {message}")]
    Cell { path: String, row: usize, column: usize, header: String, message: String },
    #[error("{path}: no animation named \"{name}\" (the file has: {})", available.join(", "))]
    NoAnimation { path: String, name: String, available: Vec<String> },
    #[error("{path}: nothing to import: {reason}")]
    Empty { path: String, reason: String },
    #[error("{path}: {error}")]
    Project { path: String, error: ProjectError },
    #[error("import cancelled")]
    Cancelled,
}

/// A JSON syntax error at its line and column (serde_json's message without the position it
/// repeats).
fn json_syntax(e: &serde_json::Error, path: &str) -> ImportError {
    let message = e.to_string();
    let suffix = format!(" at line {} column {}", e.line(), e.column());
    ImportError::Syntax { path: path.to_owned(), line: e.line(), column: e.column(), message: message.strip_suffix(&suffix).unwrap_or(&message).to_owned() }
}

/// What one importer passes to [`finish`]: the tracks in file order, and the warnings; a
/// skeleton (BVH; glTF and FBX node hierarchies) and a frame rate where the file has them.
#[derive(Default)]
struct Read {
    tracks: Vec<Track>,
    warnings: Vec<String>,
    skeleton: Option<crate::model::Skeleton>,
    fps: Option<f64>,
}

/// The file being read, for messages and progress.
struct Ctx<'a> {
    path: &'a str,
    progress: &'a dyn Fn(usize, usize) -> bool,
}

impl Ctx<'_> {
    fn invalid(&self, message: impl Into<String>) -> ImportError {
        ImportError::Invalid { path: self.path.to_owned(), message: message.into() }
    }

    /// Reports `done` of `total`; `Err(Cancelled)` when the callback says stop.
    fn progress(&self, done: usize, total: usize) -> Result<(), ImportError> {
        if (self.progress)(done, total) {
            Ok(())
        } else {
            Err(ImportError::Cancelled)
        }
    }
}

/// Imports the file at `path`, choosing the format by its extension ([`IMPORT_KINDS`], any
/// case) or [`ImportOptions::format`]; another extension is [`ImportError::UnknownKind`].
pub fn import_path(path: &Path, options: &ImportOptions) -> Result<Imported, ImportError> {
    import_path_with_progress(path, options, &|_, _| true)
}

/// [`import_path`], calling `progress(done, total)` as channels, tracks or rows are read
/// (for a progress bar on large files); returning `false` cancels with
/// [`ImportError::Cancelled`].
pub fn import_path_with_progress(path: &Path, options: &ImportOptions, progress: &dyn Fn(usize, usize) -> bool) -> Result<Imported, ImportError> {
    let origin = path.display().to_string();
    let format = options.format.or_else(|| ImportFormat::from_path(path)).ok_or_else(|| ImportError::UnknownKind { path: origin.clone() })?;
    let bytes = std::fs::read(path).map_err(|error| ImportError::Io { path: origin.clone(), error })?;
    import_bytes_in(&bytes, format, &origin, path.parent(), options, progress)
}

/// Imports `bytes` in `format`. `origin` names the source in messages; `base` is the folder
/// that relative buffer URIs of a `.gltf` are read from (none: such a file is an error).
pub fn import_bytes(bytes: &[u8], format: ImportFormat, origin: &str, base: Option<&Path>, options: &ImportOptions) -> Result<Imported, ImportError> {
    import_bytes_in(bytes, format, origin, base, options, &|_, _| true)
}

fn import_bytes_in(
    bytes: &[u8],
    format: ImportFormat,
    origin: &str,
    base: Option<&Path>,
    options: &ImportOptions,
    progress: &dyn Fn(usize, usize) -> bool,
) -> Result<Imported, ImportError> {
    let ctx = Ctx { path: origin, progress };
    let read = match format {
        ImportFormat::Gltf | ImportFormat::Glb => gltf::read(bytes, format == ImportFormat::Glb, base, options, &ctx)?,
        ImportFormat::ThreeJson => three::read(bytes, options, &ctx)?,
        ImportFormat::Csv => csv::read(bytes, &ctx)?,
        ImportFormat::Bvh => bvh::read(bytes, &ctx)?,
        ImportFormat::Fbx => fbx::read(bytes, options, &ctx)?,
    };
    finish(read, format, &ctx)
}

/// Checks and assembles what an importer read: at least one track, unique names, every
/// track valid; the project's fps from the key times.
fn finish(read: Read, format: ImportFormat, ctx: &Ctx<'_>) -> Result<Imported, ImportError> {
    let Read { mut tracks, warnings, skeleton, fps } = read;
    crate::model::share_times(tracks.iter_mut().map(|t| &mut t.keys));
    if tracks.is_empty() {
        let reason = if warnings.is_empty() { "the file has no animation tracks".to_owned() } else { warnings.join("; ") };
        return Err(ImportError::Empty { path: ctx.path.to_owned(), reason });
    }
    let fps = fps.filter(|f| f.is_finite() && *f > 0.0).unwrap_or_else(|| guess_fps(&tracks));
    let project = Project { version: 1, fps, tracks, skeleton, export: None };
    crate::io::validate_project(&project).map_err(|error| ImportError::Project { path: ctx.path.to_owned(), error })?;
    let mut project = project;
    project.version = project.required_version();
    let tracks = project
        .tracks
        .iter()
        .map(|t| ImportedTrack { name: t.name.clone(), kind: t.kind, interpolation: t.interpolation, keys: t.keys.len(), binding: t.binding.clone() })
        .collect();
    Ok(Imported { project, report: ImportReport { path: ctx.path.to_owned(), format, tracks, warnings } })
}

/// Frame rates a file's key times are recognised at.
const COMMON_FPS: [f64; 7] = [24.0, 25.0, 30.0, 48.0, 50.0, 60.0, 120.0];

/// The lowest common frame rate whose frames every key time sits on (within f32 rounding,
/// 1e-4 of a frame), else [`crate::DEFAULT_FPS`]: Blender's 24 fps exports snap at 24.
fn guess_fps(tracks: &[Track]) -> f64 {
    let times = || tracks.iter().flat_map(|t| t.keys.times());
    if times().all(|t| t == 0.0) {
        return crate::DEFAULT_FPS;
    }
    COMMON_FPS
        .into_iter()
        .find(|fps| {
            times().all(|t| {
                let f = t * fps;
                (f - f.round()).abs() <= 1e-4 * f.abs().max(1.0)
            })
        })
        .unwrap_or(crate::DEFAULT_FPS)
}

/// `name`, or `name#2`, `name#3`, … if `taken` already has it; records the result.
fn unique_name(name: String, taken: &mut std::collections::HashSet<String>) -> String {
    if taken.insert(name.clone()) {
        return name;
    }
    let mut k = 2;
    loop {
        let candidate = format!("{name}#{k}");
        if taken.insert(candidate.clone()) {
            return candidate;
        }
        k += 1;
    }
}

/// `labels` with any label equal to an earlier one made unique by [`unique_name`] (`L#2`, …).
fn unique_labels(labels: Vec<String>) -> Vec<String> {
    let mut taken = std::collections::HashSet::new();
    labels.into_iter().map(|l| unique_name(l, &mut taken)).collect()
}

/// Picks the animations (glTF) or clips (three.js) to import: all, or the one `options`
/// names. Returns `(index, label)` pairs and whether track names get a `label/` prefix.
fn choose_animations(labels: &[String], options: &ImportOptions, ctx: &Ctx<'_>) -> Result<(Vec<usize>, bool), ImportError> {
    match &options.animation {
        Some(name) => match labels.iter().position(|l| l == name) {
            Some(i) => Ok((vec![i], false)),
            None => Err(ImportError::NoAnimation { path: ctx.path.to_owned(), name: name.clone(), available: labels.to_vec() }),
        },
        None => Ok(((0..labels.len()).collect(), labels.len() > 1)),
    }
}

/// Labels for animations: the name, `animation<i>` for an unnamed one, `name#i` where two
/// share a name.
fn animation_labels<'a>(names: impl Iterator<Item = Option<&'a str>>, fallback: &str) -> Vec<String> {
    let names: Vec<Option<&str>> = names.collect();
    names
        .iter()
        .enumerate()
        .map(|(i, n)| match n {
            Some(n) if !n.is_empty() && names.iter().filter(|m| **m == Some(*n)).count() == 1 => (*n).to_owned(),
            Some(n) if !n.is_empty() => format!("{n}#{i}"),
            _ => format!("{fallback}{i}"),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Key;

    #[test]
    fn format_from_extension_and_content() {
        assert_eq!(ImportFormat::from_path(Path::new("a/walk.GLB")), Some(ImportFormat::Glb));
        assert_eq!(ImportFormat::from_path(Path::new("clip.json")), Some(ImportFormat::ThreeJson));
        assert_eq!(ImportFormat::from_path(Path::new("noext")), None);
        assert_eq!(ImportFormat::sniff(b"glTF\x02\0\0\0"), ImportFormat::Glb);
        assert_eq!(ImportFormat::sniff(b" {\"asset\": {\"version\": \"2.0\"}}"), ImportFormat::Gltf);
        assert_eq!(ImportFormat::sniff(b"{\"tracks\": []}"), ImportFormat::ThreeJson);
        assert_eq!(ImportFormat::sniff(b"time,a\n0,1\n"), ImportFormat::Csv);
    }

    #[test]
    fn fps_is_guessed_from_key_times() {
        let track =
            |times: &[f64]| Track::new("a", TrackKind::Scalar, Interpolation::Linear).with_keys(times.iter().map(|&t| Key::new(t, vec![0.0])).collect());
        // Blender's 24 fps frames, stored as f32.
        let blender = [1.0f32 / 24.0, 97.0 / 24.0].map(f64::from);
        assert_eq!(guess_fps(&[track(&blender)]), 24.0);
        assert_eq!(guess_fps(&[track(&[0.0, 0.1, 0.2])]), 30.0);
        assert_eq!(guess_fps(&[track(&[0.0, 0.123_456])]), crate::DEFAULT_FPS);
    }

    #[test]
    fn labels_and_unique_names() {
        let labels = animation_labels([Some("Walk"), None, Some("Run"), Some("Run")].into_iter(), "animation");
        assert_eq!(labels, ["Walk", "animation1", "Run#2", "Run#3"]);
        let mut taken = std::collections::HashSet::new();
        assert_eq!(unique_name("a".into(), &mut taken), "a");
        assert_eq!(unique_name("a".into(), &mut taken), "a#2");
        assert_eq!(unique_name("a".into(), &mut taken), "a#3");
    }
}
