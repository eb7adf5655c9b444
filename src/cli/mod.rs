//! The command-line subcommands of SPEC §9. Output goes to stdout only on success; every
//! error is returned for `main` to print on stderr with a non-zero exit code.

pub mod body;
pub mod problems;
pub mod retime;
pub mod rotation;
pub mod smooth;

use std::io::{BufRead, BufWriter, Write};
use std::path::Path;

use anyhow::{anyhow, bail, Context, Result};
use tangent::arclen::ArcLengthTable;
use tangent::bake::{Bound, Fps};
use tangent::export::{export_to_file, ExportOptions, Format, Target};
use tangent::io::load_project;
use tangent::open::Opened;
use tangent::{PathCurve, SegmentCursor, TrackCurve};

fn compiled_track(file: &Path, name: &str) -> Result<TrackCurve> {
    let project = load_project(file)?;
    let track = project.track(name).ok_or_else(|| {
        let names: Vec<&str> = project.tracks.iter().map(|t| t.name.as_str()).collect();
        anyhow!("{}: no track named \"{name}\" (tracks: {})", file.display(), names.join(", "))
    })?;
    Ok(TrackCurve::new(track)?)
}

/// Numbers from stdin, one per non-empty line; a line that is not a number is an error
/// naming it.
pub fn stdin_numbers() -> Result<Vec<f64>> {
    let mut out = Vec::new();
    for (i, line) in std::io::stdin().lock().lines().enumerate() {
        let line = line.context("reading stdin")?;
        let text = line.trim();
        if text.is_empty() {
            continue;
        }
        let x: f64 = text.parse().map_err(|_| anyhow!("stdin line {}: \"{text}\" is not a number", i + 1))?;
        out.push(x);
    }
    Ok(out)
}

/// `{:?}` prints the shortest text that parses back to the same `f64`.
fn write_row(out: &mut impl Write, values: &[f64]) -> std::io::Result<()> {
    for (i, v) in values.iter().enumerate() {
        if i > 0 {
            out.write_all(b" ")?;
        }
        write!(out, "{v:?}")?;
    }
    out.write_all(b"\n")
}

/// `tangent eval`: the track's values at each time as stored (radians for an Euler track's
/// angles, what scripts read), or with `degrees` an Euler track's angles in degrees.
pub fn eval(file: &Path, track: &str, times: Option<Vec<f64>>, degrees: bool) -> Result<()> {
    let curve = compiled_track(file, track)?;
    if degrees && curve.kind() != tangent::TrackKind::Euler {
        bail!("--degrees is for Euler tracks: \"{track}\" is a {:?} track", curve.kind());
    }
    let times = match times {
        Some(t) => t,
        None => stdin_numbers()?,
    };
    // Refused before anything is printed: a script gets an error, not a partial answer.
    if let Some((i, t)) = times.iter().enumerate().find(|(_, t)| !t.is_finite()) {
        bail!("time {} is {t}, not a finite number (times are seconds)", i + 1);
    }
    let mut value = vec![0.0; curve.dim()];
    let mut cursor = SegmentCursor::new();
    let mut out = BufWriter::new(std::io::stdout().lock());
    for t in times {
        curve.sample(&mut cursor, t, &mut value);
        if degrees {
            value.iter_mut().for_each(|v| *v = v.to_degrees());
        }
        write_row(&mut out, &value)?;
    }
    out.flush()?;
    Ok(())
}

/// `tangent check`: a project file is loaded and validated; a file of a kind Tangent imports
/// is imported (as `tangent FILE` would open it), and the line says so and how to make a
/// project of it.
pub fn check(file: &Path) -> Result<()> {
    let keys = |p: &tangent::Project| -> usize { p.tracks.iter().map(|t| t.keys.len()).sum() };
    match tangent::open::open_any(file)? {
        Opened::Project(project) => {
            println!("{}: ok, version {}, {} tracks, {} keys, {} fps", file.display(), project.version, project.tracks.len(), keys(&project), project.fps);
        }
        Opened::Imported(imported) => {
            let (project, report) = (&imported.project, &imported.report);
            let warnings = report.warnings.len();
            println!(
                "{}: ok, a {} file Tangent imports (not a project): {} tracks, {} keys, {} fps, {warnings} warning{}; `tangent import {}` writes it as a project",
                file.display(),
                report.format.label(),
                project.tracks.len(),
                keys(project),
                project.fps,
                if warnings == 1 { "" } else { "s" },
                file.display(),
            );
            for w in &report.warnings {
                println!("warning: {w}");
            }
        }
    }
    Ok(())
}

/// What `tangent arclen` prints.
pub enum ArclenOutput {
    Summary,
    TimesAtLengths,
    LengthsAtTimes,
}

impl ArclenOutput {
    pub fn from_flags(lengths: bool, times: bool) -> Self {
        match (lengths, times) {
            (true, _) => Self::TimesAtLengths,
            (_, true) => Self::LengthsAtTimes,
            _ => Self::Summary,
        }
    }
}

pub fn arclen(file: &Path, track: &str, tolerance: f64, output: ArclenOutput) -> Result<()> {
    let curve = compiled_track(file, track)?;
    if !(tolerance.is_finite() && tolerance > 0.0) {
        bail!("--tolerance must be a positive number, got {tolerance}");
    }
    let path = PathCurve::new(&curve).with_context(|| format!("track \"{track}\""))?;
    let table = ArcLengthTable::new(path, tolerance).with_context(|| format!("track \"{track}\""))?;
    let mut out = BufWriter::new(std::io::stdout().lock());
    let mut cursor = SegmentCursor::new();
    match output {
        ArclenOutput::Summary => {
            writeln!(out, "length {:?}", table.length())?;
            writeln!(out, "samples {}", table.len())?;
        }
        ArclenOutput::TimesAtLengths => {
            for s in stdin_numbers()? {
                write_row(&mut out, &[table.t_of_s(&mut cursor, s)])?;
            }
        }
        ArclenOutput::LengthsAtTimes => {
            for t in stdin_numbers()? {
                write_row(&mut out, &[table.s_of_t(&mut cursor, t)])?;
            }
        }
    }
    out.flush()?;
    Ok(())
}

/// Parses `--map NAME=TARGET`.
pub fn parse_mapping(text: &str) -> Result<(String, Target), String> {
    let (name, target) = text.split_once('=').ok_or_else(|| format!("expected NAME=TARGET, got \"{text}\""))?;
    Ok((name.to_owned(), target.parse()?))
}

/// What `tangent bake` was asked for.
pub struct BakeArgs {
    pub fps: Option<f64>,
    pub adaptive: Option<f64>,
    /// With `adaptive`: the bound for rotation (Quat, Euler) tracks, in degrees.
    pub angle: f64,
    /// With `adaptive`: linear keys rather than fitted Bezier keys.
    pub adaptive_linear: bool,
    pub constant_speed: bool,
    /// three.js JSON: InterpolateBezier tracks (r187) rather than baked ones.
    pub three_bezier: bool,
    pub format: Format,
    pub map: Vec<(String, Target)>,
    /// Who plays the file (`--runtime`).
    pub runtime: tangent::runtime::Runtime,
}

/// `tangent bake`: exports every (mapped) track, with a progress bar on a terminal and a
/// per-track report (form, keys, true maximum error with its unit — radians and degrees for
/// rotations, value units otherwise — and a note where the track went in
/// another form, as an Euler track as quaternions) on stdout.
pub fn bake(file: &Path, args: BakeArgs, output: &Path) -> Result<()> {
    let project = load_project(file)?;
    let fps = Fps::new(args.fps.unwrap_or(project.fps)).context("--fps")?;
    let mut options = ExportOptions {
        constant_speed: args.constant_speed,
        three_bezier: args.three_bezier,
        adaptive_linear: args.adaptive_linear,
        runtime: args.runtime,
        ..ExportOptions::new(fps)
    };
    options.adaptive = args.adaptive.map(Bound::new).transpose().context("--adaptive")?;
    if !(args.angle > 0.0 && args.angle < 180.0) {
        bail!("--angle must be between 0 and 180 degrees, got {}", args.angle);
    }
    options.adaptive_angle_deg = Some(args.angle);
    for (name, target) in args.map {
        if project.track(&name).is_none() {
            bail!("--map {name}={target:?}: no track named \"{name}\"");
        }
        options.targets.insert(name, target);
    }
    let bar = indicatif::ProgressBar::new(0);
    bar.set_style(indicatif::ProgressStyle::with_template("baking {bar:30} {pos}/{len} tracks").expect("a valid template"));
    let report = export_to_file(output, &project, args.format, &options, &|done, total| {
        bar.set_length(total as u64);
        bar.set_position(done as u64);
        true
    });
    bar.finish_and_clear();
    let report = report?;
    let mut out = BufWriter::new(std::io::stdout().lock());
    for r in &report {
        // How a track the format cannot hold as keyed went instead (an Euler track as
        // quaternions), after the error so the first five columns keep their meaning; before
        // it, the runtime the error was measured in, unless the specification.
        let note = r.note.as_deref().map(|n| format!("\t{n}")).unwrap_or_default();
        let runtime = if r.runtime == tangent::runtime::Runtime::Spec { String::new() } else { format!("\tin {}", r.runtime) };
        // Rotations are measured as angles in radians (and said in degrees too), the rest in
        // the track's own units.
        let error = if r.target == Target::Rotation {
            format!("{:e} rad ({:.5}°)", r.max_error, r.max_error.to_degrees())
        } else {
            format!("{:e} value units", r.max_error)
        };
        writeln!(out, "{}\t{:?}\t{}\t{} keys\tmax error {error}{runtime}{note}", r.name, r.target, r.form, r.keys)?;
    }
    out.flush()?;
    // Warnings on stderr, so the report's lines stay one per track.
    for r in &report {
        if let Some(w) = &r.warning {
            eprintln!("warning: track \"{}\": {w}", r.name);
        }
    }
    Ok(())
}

/// `tangent reduce`: every track (or the named ones) reduced within the tolerance, one report
/// line each, the result saved atomically to `output`.
pub fn reduce(file: &Path, tolerance: f64, angle: f64, names: &[String], output: &Path) -> Result<()> {
    use tangent::reduce::{project, Tolerance};
    let project_in = load_project(file)?;
    let tol = Tolerance::new(tolerance, angle)?;
    let mut which = Vec::new();
    for name in names {
        let i =
            project_in.tracks.iter().position(|t| &t.name == name).ok_or_else(|| anyhow!("--track {name}: no track named \"{name}\" in {}", file.display()))?;
        which.push(i);
    }
    let bar = indicatif::ProgressBar::new(0);
    bar.set_style(indicatif::ProgressStyle::with_template("reducing {bar:30} {pos}/{len} tracks").expect("a valid template"));
    let reports = project::reduce_tracks(&project_in, &which, tol, &|done, total| {
        bar.set_length(total as u64);
        bar.set_position(done as u64);
    });
    bar.finish_and_clear();
    let reduced = project::apply(&project_in, &reports);
    tangent::io::save_project(output, &reduced)?;
    let mut out = BufWriter::new(std::io::stdout().lock());
    for r in &reports {
        writeln!(out, "{r}")?;
    }
    let before: usize = project_in.tracks.iter().map(|t| t.keys.len()).sum();
    let after: usize = reduced.tracks.iter().map(|t| t.keys.len()).sum();
    writeln!(out, "total\t{before} -> {after} keys\twrote {}", output.display())?;
    if let Some(bad) = reports.iter().find(|r| r.result.is_err()) {
        bail!("{bad}");
    }
    Ok(())
}

/// Files larger than this get a progress bar while they are imported.
const IMPORT_BAR_BYTES: u64 = 1 << 20;

/// `tangent import`: reads FILE, writes the project (to `output`, or FILE's name with `.ron`
/// beside it, which must not exist yet), prints the report and where it wrote.
pub fn import(file: &Path, output: Option<&Path>, animation: Option<String>) -> Result<()> {
    use tangent::import::{import_kind, import_path_with_progress, ImportError, ImportOptions};
    // Before the output's name is looked at: an unknown kind is what is wrong.
    if import_kind(file).is_none() {
        return Err(ImportError::UnknownKind { path: file.display().to_string() }.into());
    }
    let out = match output {
        Some(o) => o.to_path_buf(),
        None => {
            let o = file.with_extension("ron");
            if o.exists() {
                bail!("{} already exists; give -o {} to overwrite it", o.display(), o.display());
            }
            o
        }
    };
    let large = std::fs::metadata(file).map_or(false, |m| m.len() >= IMPORT_BAR_BYTES);
    let bar = if large { indicatif::ProgressBar::new(0) } else { indicatif::ProgressBar::hidden() };
    bar.set_style(indicatif::ProgressStyle::with_template("importing {bar:30} {percent}%").expect("a valid template"));
    let imported = import_path_with_progress(file, &ImportOptions { animation, format: None }, &|done, total| {
        bar.set_length(total as u64);
        bar.set_position(done as u64);
        true
    });
    bar.finish_and_clear();
    let imported = imported?;
    tangent::io::save_project(&out, &imported.project)?;
    let mut stdout = BufWriter::new(std::io::stdout().lock());
    write!(stdout, "{}", imported.report)?;
    writeln!(stdout, "wrote {} ({} tracks, {} fps)", out.display(), imported.project.tracks.len(), imported.project.fps)?;
    Ok(())
}
