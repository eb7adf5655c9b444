//! Project files: RON text, versioned (SPEC §8; the format is documented in `docs/format.md`).
//!
//! Loading parses, then validates and compiles every track ([`crate::curve::validate`],
//! overflow included); any failure is a
//! [`FileError`] that says where (line and column, or track and key) and why, and the caller's
//! open document is never touched because loading only ever returns a new [`Project`]. A field
//! the format does not have is refused, named with the nearest known one
//! ([`FileError::UnknownField`]), on the big files' fast path too
//! ([`crate::ron_split`] then parses the whole text as one for the error's line).
//! Saving is atomic: the text goes to a temporary file in the same directory, is flushed to
//! disk, then renamed over the target, so a crash never leaves a half-written project.

use std::collections::HashSet;
use std::io::Write;
use std::path::Path;

use crate::error::{FileError, ProjectError};
use crate::model::{Project, FILE_VERSION};

/// The built-in demo project's text (`assets/demo.ron`).
pub const DEMO_PROJECT: &str = include_str!("../../assets/demo.ron");

/// The built-in demo project.
#[must_use]
pub fn demo_project() -> Project {
    parse_project(DEMO_PROJECT, "demo").expect("the built-in demo project is valid (tested)")
}

/// Checks every track and the project-level fields.
pub fn validate_project(project: &Project) -> Result<(), ProjectError> {
    compile_project(project).map(|_| ())
}

/// Checks the project-level fields and compiles every track (on every core), which also
/// refuses values whose arithmetic would overflow (`TrackError::Overflow`); the first failing
/// track in file order is the one reported.
pub fn compile_project(project: &Project) -> Result<Vec<crate::TrackCurve>, ProjectError> {
    use rayon::prelude::*;
    if !(project.fps.is_finite() && project.fps > 0.0) {
        return Err(ProjectError::BadFps(project.fps));
    }
    if let Some(skeleton) = &project.skeleton {
        skeleton.check()?;
    }
    if let Some(export) = &project.export {
        export.check().map_err(|e| ProjectError::Export(e.to_string()))?;
    }
    let mut names = HashSet::new();
    for track in &project.tracks {
        if !names.insert(track.name.as_str()) {
            return Err(ProjectError::DuplicateName(track.name.clone()));
        }
    }
    let curves: Vec<Result<crate::TrackCurve, crate::TrackError>> = project.tracks.par_iter().map(crate::TrackCurve::new).collect();
    Ok(curves.into_iter().collect::<Result<Vec<_>, _>>()?)
}

/// Parses and validates project text. `origin` names the source in messages (a path, or
/// "demo").
pub fn parse_project(text: &str, origin: &str) -> Result<Project, FileError> {
    parse_project_compiled(text, origin).map(|(project, _)| project)
}

/// [`parse_project`], keeping the compiled curves validation made (opening a big file in the
/// editor compiles each track once).
pub fn parse_project_compiled(text: &str, origin: &str) -> Result<(Project, Vec<crate::TrackCurve>), FileError> {
    // `implicit_some` lets optional fields be written plainly (`color: Rgb(255, 0, 0)`).
    let options = ron::Options::default().with_default_extension(ron::extensions::Extensions::IMPLICIT_SOME);
    // A big file is parsed track by track on every core; anything unusual, as one.
    let split = crate::ron_split::parse_split(text, &options);
    let mut project: Project = split.map_or_else(|| options.from_str(text), Ok).map_err(|e| parse_error(e, origin, text))?;
    crate::model::share_times(project.tracks.iter_mut().map(|t| &mut t.keys));
    if project.version > FILE_VERSION {
        return Err(FileError::Version { path: origin.to_owned(), found: project.version, supported: FILE_VERSION });
    }
    let curves = compile_project(&project).map_err(|error| FileError::Invalid { path: origin.to_owned(), error })?;
    Ok((project, curves))
}

/// The `name: "…"` nearest before `line:column` (1-based): the track an error inside a
/// track's fields is in (a track's name comes first in files Tangent writes; `node_name` and
/// other fields ending in `name` are not it).
fn enclosing_track_name(text: &str, line: usize, column: usize) -> Option<String> {
    let line_start: usize = text.split_inclusive('\n').take(line.saturating_sub(1)).map(str::len).sum();
    let upto = text.get(..(line_start + column.saturating_sub(1)).min(text.len()))?;
    let mut end = upto.len();
    while let Some(at) = upto[..end].rfind("name:") {
        let plain = !upto[..at].ends_with(|c: char| c.is_alphanumeric() || c == '_');
        if plain {
            let rest = upto[at + 5..].trim_start().strip_prefix('"')?;
            return Some(rest[..rest.find('"')?].to_owned());
        }
        end = at;
    }
    None
}

/// A RON error as a [`FileError`] at its line and column. An unknown field (every file struct
/// denies them, `crate::model`) becomes [`FileError::UnknownField`] with the nearest known name;
/// an unknown mode or kind gets the nearest one too.
fn parse_error(e: ron::error::SpannedError, origin: &str, text: &str) -> FileError {
    let (path, line, column) = (origin.to_owned(), e.span.start.line, e.span.start.col);
    match e.code {
        ron::Error::NoSuchStructField { expected, found, outer } => {
            let place = match outer.as_deref() {
                Some("Key") => "a key",
                Some("Track") => "a track",
                Some("Project") => "the project",
                Some("Gltf") => "a glTF binding",
                Some("Three") => "a three.js binding",
                Some("Element") => "a binding's element",
                Some("ExportSettings") => "the export settings",
                _ => "a struct",
            };
            let suggestion = crate::error::nearest_name(&found, expected);
            FileError::UnknownField { path, line, column, field: found, place, suggestion, expected }
        }
        ron::Error::NoSuchEnumVariant { expected, ref found, outer: Some(ref outer) } if outer == "EulerOrder" => {
            let track = enclosing_track_name(text, line, column).map(|n| format!("track \"{n}\": ")).unwrap_or_default();
            let mut message = format!("{track}unknown rotation order `{found}`; the orders are {}", crate::euler::EulerOrder::all_names());
            if let Some(near) = crate::error::nearest_name(found, expected) {
                message.push_str(&format!("; did you mean `{near}`?"));
            }
            FileError::Syntax { path, line, column, message }
        }
        ron::Error::NoSuchEnumVariant { expected, ref found, .. } => {
            let mut message = e.code.to_string();
            if let Some(near) = crate::error::nearest_name(found, expected) {
                message.push_str(&format!("; did you mean `{near}`?"));
            }
            FileError::Syntax { path, line, column, message }
        }
        code => FileError::Syntax { path, line, column, message: code.to_string() },
    }
}

/// Reads, parses and validates the project at `path`.
pub fn load_project(path: &Path) -> Result<Project, FileError> {
    let origin = path.display().to_string();
    let text = std::fs::read_to_string(path).map_err(|error| FileError::Io { path: origin.clone(), error })?;
    parse_project(&text, &origin)
}

/// The project as pretty RON text, in the lowest file version that holds it
/// ([`Project::required_version`]); a big project's key lists written in parallel, by hand
/// ([`crate::ron_write`]).
pub fn project_to_string(project: &Project) -> Result<String, ron::Error> {
    let (header, fast) = project_header(project)?;
    if fast {
        crate::ron_write::with_tracks(&header, project)
    } else {
        Ok(header)
    }
}

/// RON's text of the project; for a big one (more than [`crate::ron_write::FAST_WRITE_KEYS`]
/// keys) with an empty track list for [`crate::ron_write`] to fill, and `true`.
fn project_header(project: &Project) -> Result<(String, bool), ron::Error> {
    /// [`Project`]'s fields with the version to write, borrowing the tracks (a copy of a
    /// million keys would cost more than writing them out).
    #[derive(serde::Serialize)]
    struct Written<'a> {
        version: u32,
        fps: f64,
        tracks: &'a [crate::model::Track],
        #[serde(skip_serializing_if = "Option::is_none")]
        skeleton: Option<&'a crate::model::Skeleton>,
        #[serde(skip_serializing_if = "Option::is_none")]
        export: Option<&'a crate::model::ExportSettings>,
    }
    let keys: usize = project.tracks.iter().map(|t| t.keys.len()).sum();
    let fast = keys > crate::ron_write::FAST_WRITE_KEYS;
    let tracks: &[crate::model::Track] = if fast { &[] } else { &project.tracks };
    let written =
        Written { version: project.required_version(), fps: project.fps, tracks, skeleton: project.skeleton.as_ref(), export: project.export.as_ref() };
    Ok((ron::ser::to_string_pretty(&written, crate::ron_write::pretty())?, fast))
}

/// Above this many keys a worker keeps the document's share of the project rather than copy
/// it ([`released`]).
pub const SHARE_ABOVE_KEYS: usize = 2_000_000;

/// The project a worker (save, autosave, export) reads: for a project of up to
/// [`SHARE_ABOVE_KEYS`] keys its own copy, the share let go of at once (the project itself if
/// nobody else holds it). A save that held the share while it wrote (a second for a million
/// keys) made the editor's next edit copy the whole project on the UI thread (copy-on-write);
/// with a copy, an edit copies only while the copy is made, and on the worker's side
/// otherwise. Above that, the share is kept: a copy would double the memory of a
/// motion-capture take (7.2 million keys: 1.2 GB more, the editor's whole budget), and an
/// edit made while the worker writes (a second or two) copies once then instead.
#[must_use]
pub fn released(project: std::sync::Arc<Project>) -> std::sync::Arc<Project> {
    released_above(project, SHARE_ABOVE_KEYS)
}

fn released_above(project: std::sync::Arc<Project>, share_above: usize) -> std::sync::Arc<Project> {
    if project.tracks.iter().map(|t| t.keys.len()).sum::<usize>() > share_above {
        project
    } else {
        std::sync::Arc::new(std::sync::Arc::unwrap_or_clone(project))
    }
}

/// Writes `project` to `path` atomically (temporary file, fsync, rename). Refuses an invalid
/// project rather than writing a file that would not load.
pub fn save_project(path: &Path, project: &Project) -> Result<(), FileError> {
    let origin = path.display().to_string();
    validate_project(project).map_err(|error| FileError::Invalid { path: origin.clone(), error })?;
    let serialize = |e: ron::Error| FileError::Serialize { path: origin.clone(), message: e.to_string() };
    let (header, fast) = project_header(project).map_err(serialize)?;
    let written = if fast {
        // A big project's text is written as its tracks are formatted, never whole in memory.
        write_atomically_with(path, |f| crate::ron_write::write_with_tracks(&header, project, f))
    } else {
        write_atomically(path, header.as_bytes())
    };
    written.map_err(|error| FileError::Io { path: origin, error })
}

/// Writes `bytes` to a sibling temporary file and renames it over `path`. On any failure
/// the temporary file is removed and `path` is left as it was.
///
/// - Through a symbolic link, the link's target is written and the link kept.
/// - An existing file's permissions are kept.
/// - After the rename the directory is synced, so the new name survives a power cut.
/// - Temporary files of earlier saves of this file whose writer no longer runs (an interrupted
///   save) are removed.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    write_atomically_with(path, |f| f.write_all(bytes))
}

/// [`write_atomically`], the contents written by `write` (through a buffer).
pub fn write_atomically_with(path: &Path, write: impl FnOnce(&mut dyn Write) -> std::io::Result<()>) -> std::io::Result<()> {
    let target = resolve_link(path);
    let path = target.as_path();
    let dir = path.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
    let name = path.file_name().ok_or_else(|| std::io::Error::new(std::io::ErrorKind::InvalidInput, "not a file path"))?;
    let tmp = dir.join(format!(".{}.{}.tmp", name.to_string_lossy(), std::process::id()));
    let result = (|| {
        let mut buffered = std::io::BufWriter::with_capacity(1 << 20, std::fs::File::create(&tmp)?);
        write(&mut buffered)?;
        let f = buffered.into_inner().map_err(std::io::IntoInnerError::into_error)?;
        if let Ok(meta) = std::fs::metadata(path) {
            f.set_permissions(meta.permissions())?;
        }
        f.sync_all()?;
        drop(f);
        std::fs::rename(&tmp, path)?;
        // Not every platform can sync a directory; the rename has happened either way.
        if let Ok(d) = std::fs::File::open(dir) {
            let _ = d.sync_all();
        }
        Ok(())
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    } else {
        remove_stale_temporaries(dir, &name.to_string_lossy());
    }
    result
}

/// `path`, or where the symbolic link at `path` points (followed to the end, relative links
/// taken from the link's directory).
fn resolve_link(path: &Path) -> std::path::PathBuf {
    let mut p = path.to_owned();
    for _ in 0..40 {
        match std::fs::read_link(&p) {
            Ok(next) => p = if next.is_absolute() { next } else { p.parent().unwrap_or(Path::new(".")).join(next) },
            Err(_) => break,
        }
    }
    p
}

/// Removes `.NAME.PID.tmp` files in `dir` left by processes that no longer run.
fn remove_stale_temporaries(dir: &Path, name: &str) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    let prefix = format!(".{name}.");
    for e in entries.filter_map(Result::ok) {
        let file = e.file_name().to_string_lossy().into_owned();
        let Some(pid) = file.strip_prefix(&prefix).and_then(|r| r.strip_suffix(".tmp")).and_then(|p| p.parse::<u32>().ok()) else { continue };
        let alive = pid == std::process::id() || Path::new(&format!("/proc/{pid}")).exists();
        if !alive {
            let _ = std::fs::remove_file(e.path());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A save's copy: the project itself when the worker holds the only share (the same
    /// tracks' memory), else an equal copy, the document's share left alone (so it can be
    /// changed in place again).
    #[test]
    fn a_released_project_lets_go_of_the_share() {
        let shared = std::sync::Arc::new(demo_project());
        let tracks = shared.tracks.as_ptr();
        let own = released(shared.clone());
        assert_eq!(*own, *shared);
        assert_ne!(own.tracks.as_ptr(), tracks, "a copy while the document holds it");
        assert_eq!(std::sync::Arc::strong_count(&shared), 1, "the worker's share is gone");
        drop(own);
        let own = released(shared.clone());
        drop(shared);
        assert_ne!(own.tracks.as_ptr(), tracks);
        let own = released(own);
        let ptr = own.tracks.as_ptr();
        assert_eq!(released(own).tracks.as_ptr(), ptr, "the only share: no copy");
        // A project above the limit keeps the share: no copy, the document's share held.
        let shared = std::sync::Arc::new(demo_project());
        let keys: usize = shared.tracks.iter().map(|t| t.keys.len()).sum();
        let kept = released_above(shared.clone(), keys - 1);
        assert!(std::sync::Arc::ptr_eq(&kept, &shared));
    }

    const SPEC_EXAMPLE: &str = r#"(
    version: 1,
    fps: 60.0,
    tracks: [
        (
            name: "position",
            kind: Vec2,                 // Scalar | Vec2 | Vec3 | Vec4 | Quat
            interpolation: Tcb,         // Step | Linear | Cubic | Tcb | Slerp | Nlerp | Squad
            tangents: Seed,             // Seed | TimeAdjusted (Tcb only)
            keys: [
                (time: 0.0, value: [0.0, 0.0]),
                (time: 1.0, value: [4.0, 2.0], tension: 0.2, ease_from: 0.5),
            ],
        ),
    ],
)"#;

    #[test]
    fn demo_project_loads_and_every_track_compiles() {
        let p = demo_project();
        assert!(p.tracks.len() >= 6);
        for t in &p.tracks {
            crate::TrackCurve::new(t).unwrap();
        }
    }

    #[test]
    fn optional_fields_load_with_or_without_some() {
        let plain = SPEC_EXAMPLE.replace("tangents: Seed,", "tangents: Seed, color: Rgb(1, 2, 3),");
        let wrapped = SPEC_EXAMPLE.replace("tangents: Seed,", "tangents: Seed, color: Some(Rgb(1, 2, 3)),");
        let a = parse_project(&plain, "a").unwrap();
        assert_eq!(a.tracks[0].color, Some(crate::model::Rgb(1, 2, 3)));
        assert_eq!(parse_project(&wrapped, "b").unwrap(), a);
        assert_eq!(parse_project(&project_to_string(&a).unwrap(), "c").unwrap(), a);
    }

    #[test]
    fn spec_example_loads_and_round_trips() {
        let p = parse_project(SPEC_EXAMPLE, "spec").unwrap();
        assert_eq!(p.tracks[0].keys[1].tension, 0.2);
        assert_eq!(p.tracks[0].keys[0].bias, 0.0);
        let text = project_to_string(&p).unwrap();
        assert_eq!(parse_project(&text, "again").unwrap(), p);
    }

    fn err(text: &str) -> String {
        parse_project(text, "f.ron").unwrap_err().to_string()
    }

    #[test]
    fn syntax_error_names_line_and_column() {
        let bad = SPEC_EXAMPLE.replace("(time: 1.0,", "(time: 1.0 oops,");
        let msg = err(&bad);
        assert!(msg.starts_with("f.ron:12:"), "{msg}");
    }

    #[test]
    fn unknown_mode_is_refused_with_position() {
        let msg = err(&SPEC_EXAMPLE.replace("interpolation: Tcb", "interpolation: Bouncy"));
        assert!(msg.starts_with("f.ron:8:") && msg.contains("Bouncy"), "{msg}");
    }

    #[test]
    fn nan_and_order_and_length_name_track_and_key() {
        let msg = err(&SPEC_EXAMPLE.replace("value: [4.0, 2.0]", "value: [NaN, 2.0]"));
        assert!(msg.contains("\"position\", key 1") && msg.contains("not a finite"), "{msg}");
        let msg = err(&SPEC_EXAMPLE.replace("time: 1.0", "time: -1.0"));
        assert!(msg.contains("key 1") && msg.contains("time order"), "{msg}");
        let msg = err(&SPEC_EXAMPLE.replace("value: [4.0, 2.0]", "value: [4.0]"));
        assert!(msg.contains("key 1") && msg.contains("1 components"), "{msg}");
        let msg = err(&SPEC_EXAMPLE.replace("kind: Vec2", "kind: Quat"));
        assert!(msg.contains("Tcb interpolation does not apply to Quat"), "{msg}");
    }

    #[test]
    fn save_is_atomic_and_leaves_no_temporary() {
        let dir = std::env::temp_dir().join(format!("tangent-io-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("p.ron");
        let p = parse_project(SPEC_EXAMPLE, "spec").unwrap();
        save_project(&path, &p).unwrap();
        assert_eq!(load_project(&path).unwrap(), p);
        let leftovers: Vec<_> = std::fs::read_dir(&dir).unwrap().filter_map(Result::ok).filter(|e| e.file_name().to_string_lossy().ends_with(".tmp")).collect();
        assert!(leftovers.is_empty());
        // A save that cannot be written fails and leaves the old file intact. Its temporary
        // file's name is taken by a directory, which even root cannot open as a file (a
        // read-only directory would not stop root).
        let old = std::fs::read_to_string(&path).unwrap();
        let blocker = dir.join(format!(".p.ron.{}.tmp", std::process::id()));
        std::fs::create_dir(&blocker).unwrap();
        let mut q = p.clone();
        q.fps = 24.0;
        assert!(save_project(&path, &q).is_err(), "the temporary file cannot be created");
        assert_eq!(std::fs::read_to_string(&path).ok(), Some(old), "the old file is intact");
        assert_eq!(load_project(&path).unwrap(), p);
        std::fs::remove_dir(&blocker).unwrap();
        // A target in a directory that does not exist fails too, creating nothing.
        let missing = dir.join("no-such-dir").join("p.ron");
        assert!(save_project(&missing, &p).is_err());
        assert!(!dir.join("no-such-dir").exists());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// Saving through a symbolic link writes its target and keeps the link; the file's
    /// permissions are kept; a temporary file of an interrupted save (its writer gone) is
    /// removed by the next save of that file, another process's running save is not touched.
    #[cfg(unix)]
    #[test]
    fn save_follows_links_keeps_permissions_and_cleans_stale_temporaries() {
        use std::os::unix::fs::PermissionsExt;
        let dir = std::env::temp_dir().join(format!("tangent-io-links-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("real")).unwrap();
        let p = parse_project(SPEC_EXAMPLE, "spec").unwrap();
        let target = dir.join("real/p.ron");
        save_project(&target, &p).unwrap();
        std::fs::set_permissions(&target, std::fs::Permissions::from_mode(0o640)).unwrap();
        let link = dir.join("link.ron");
        std::os::unix::fs::symlink("real/p.ron", &link).unwrap();
        // pid 4,000,000,000 does not run (above Linux's pid limit, 2^22).
        let stale = dir.join("real/.p.ron.4000000000.tmp");
        std::fs::write(&stale, "half a file").unwrap();
        let ours = dir.join(format!("real/.p.ron.{}.tmp", std::process::id()));
        // A running save of another process: pid 1 (init) always runs.
        assert!(Path::new("/proc/1").exists(), "pid 1 runs");
        let running = dir.join("real/.p.ron.1.tmp");
        std::fs::write(&running, "another process's save in progress").unwrap();
        let mut q = p.clone();
        q.fps = 24.0;
        save_project(&link, &q).unwrap();
        assert!(std::fs::symlink_metadata(&link).unwrap().file_type().is_symlink(), "the link stays a link");
        assert_eq!(load_project(&target).unwrap().fps, 24.0, "its target was written");
        assert_eq!(std::fs::metadata(&target).unwrap().permissions().mode() & 0o777, 0o640);
        assert!(!stale.exists(), "the interrupted save's temporary is gone");
        assert!(!ours.exists(), "and ours was renamed into place");
        let left = std::fs::read_to_string(&running).ok();
        assert_eq!(left.as_deref(), Some("another process's save in progress"), "a running save's temporary is not touched");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
