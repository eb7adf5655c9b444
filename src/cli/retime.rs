//! `tangent retime` (issue 32): tracks stretched in time about a pivot
//! ([`tangent::retime::retime_track`]), one line per track with the difference measured.

use std::io::{BufWriter, Write};
use std::path::Path;

use anyhow::{anyhow, bail, Result};
use tangent::io::{load_project, save_project};
use tangent::retime::retime_track;

/// `tangent retime FILE --scale S [--pivot T] [--track NAME]... -o OUT`: every track (or the
/// ones named) scaled by `scale` about `pivot`; prints `NAME  N keys  max difference D` (and
/// what changed besides times), then writes the project.
pub fn retime(file: &Path, scale: f64, pivot: f64, names: &[String], output: &Path) -> Result<()> {
    let mut project = load_project(file)?;
    let which: Vec<usize> = if names.is_empty() {
        (0..project.tracks.len()).collect()
    } else {
        names
            .iter()
            .map(|name| {
                project.tracks.iter().position(|t| &t.name == name).ok_or_else(|| anyhow!("--track {name}: no track named \"{name}\" in {}", file.display()))
            })
            .collect::<Result<_>>()?
    };
    if which.is_empty() {
        bail!("{}: no tracks", file.display());
    }
    let mut out = BufWriter::new(std::io::stdout().lock());
    let mut lines = Vec::new();
    for i in which {
        let track = &project.tracks[i];
        let r = retime_track(track, scale, pivot).map_err(|e| anyhow!("track \"{}\": {e}", track.name))?;
        let unit = if track.kind.is_rotation() { " deg" } else { " value units" };
        let mut line = format!("{}\t{} keys\tmax difference {:.3e}{unit}", track.name, r.track.keys.len(), r.max_difference);
        for n in &r.notes {
            line.push_str(&format!("\t{n}"));
        }
        lines.push(line);
        project.tracks[i] = r.track;
    }
    save_project(output, &project)?;
    for l in lines {
        writeln!(out, "{l}")?;
    }
    writeln!(out, "wrote {}", output.display())?;
    Ok(())
}
