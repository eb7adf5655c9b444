//! `tangent pose` and `tangent diff` (SPEC §14, issue 42): the body's joints at given times,
//! and how far two versions of a take differ, per track and on the body.

use std::io::{BufWriter, Write};
use std::path::Path;

use anyhow::{anyhow, bail, Context, Result};
use tangent::body::{self, Pose, Rig};
use tangent::open::Opened;
use tangent::{Project, TrackCurve};

/// A project file, or a file Tangent imports (a BVH take is posed without writing a project).
fn open(file: &Path) -> Result<Project> {
    Ok(match tangent::open::open_any(file)? {
        Opened::Project(p) => p,
        Opened::Imported(i) => i.project,
    })
}

/// Every track compiled, or the first failure named.
fn compile(file: &Path, project: &Project) -> Result<Vec<TrackCurve>> {
    project.tracks.iter().map(|t| TrackCurve::new(t).with_context(|| format!("{}: track \"{}\"", file.display(), t.name))).collect()
}

/// `tangent pose FILE [--times …]`: per time, `TIME NAME X Y Z` for every joint and end site.
pub fn pose(file: &Path, times: Option<Vec<f64>>) -> Result<()> {
    let project = open(file)?;
    let rig = Rig::new(&project).with_context(|| format!("{}: no body to pose", file.display()))?;
    let curves = compile(file, &project)?;
    let times = match times {
        Some(t) => t,
        None => crate::cli::stdin_numbers()?,
    };
    if let Some((i, t)) = times.iter().enumerate().find(|(_, t)| !t.is_finite()) {
        bail!("time {} is {t}, not a finite number (times are seconds)", i + 1);
    }
    let mut animated = rig.animate(|i| Ok(&curves[i]))?;
    let mut pose = Pose::default();
    // Everything is computed before anything is printed: an error leaves stdout empty.
    let mut text = Vec::new();
    for &t in &times {
        animated.pose_at(t, &mut pose).with_context(|| format!("{}", file.display()))?;
        for (point, p) in rig.points().iter().zip(&pose.points) {
            writeln!(text, "{t:?} {} {:?} {:?} {:?}", point.name, p[0], p[1], p[2])?;
        }
    }
    let mut out = BufWriter::new(std::io::stdout().lock());
    out.write_all(&text)?;
    out.flush()?;
    Ok(())
}

/// `tangent diff BEFORE AFTER [--track NAME]… [--body]`: per track of BEFORE that AFTER also
/// has, the largest difference of their curves (the track's units: file units, or degrees
/// for rotations); with `--body`, the largest joint displacement over the whole take.
pub fn diff(before_file: &Path, after_file: &Path, names: &[String], body: bool) -> Result<()> {
    let (before, after) = (open(before_file)?, open(after_file)?);
    for name in names {
        if before.track(name).is_none() {
            bail!("{}: no track named \"{name}\"", before_file.display());
        }
        if after.track(name).is_none() {
            bail!("{}: no track named \"{name}\"", after_file.display());
        }
    }
    let mut lines = Vec::new();
    for track in &before.tracks {
        if !names.is_empty() && !names.contains(&track.name) {
            continue;
        }
        let Some(other) = after.track(&track.name) else {
            lines.push(format!("{}: only in {}", track.name, before_file.display()));
            continue;
        };
        if other.kind != track.kind {
            lines.push(format!("{}: {:?} in one file, {:?} in the other (not compared)", track.name, track.kind, other.kind));
            continue;
        }
        let a = TrackCurve::new(track).with_context(|| format!("{}: track \"{}\"", before_file.display(), track.name))?;
        let b = TrackCurve::new(other).with_context(|| format!("{}: track \"{}\"", after_file.display(), other.name))?;
        let d = tangent::smooth::max_difference(&a, &b);
        let unit = if track.kind.is_rotation() { " deg" } else { " (file units)" };
        lines.push(format!("{}: {d:?}{unit}", track.name));
    }
    if names.is_empty() {
        for track in after.tracks.iter().filter(|t| before.track(&t.name).is_none()) {
            lines.push(format!("{}: only in {}", track.name, after_file.display()));
        }
    }
    if body {
        if before.skeleton.is_none() {
            return Err(anyhow!(body::BodyError::NoSkeleton)).with_context(|| format!("{}: --body", before_file.display()));
        }
        if before.skeleton != after.skeleton {
            bail!("{} and {} have different skeletons: the body cannot be compared", before_file.display(), after_file.display());
        }
        let d = body::project_difference(&before, &after)?.ok_or(body::BodyError::NoSkeleton)?;
        lines.push(format!(
            "body: largest joint displacement {:?} file units at {}, {:?} s ({:.3}% of the skeleton's size)",
            d.distance, d.point, d.time, d.percent
        ));
    }
    let mut out = BufWriter::new(std::io::stdout().lock());
    for line in lines {
        writeln!(out, "{line}")?;
    }
    out.flush()?;
    Ok(())
}
