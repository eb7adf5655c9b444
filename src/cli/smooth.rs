//! `tangent filter FILE --butterworth CUTOFF_HZ [--order N] | --gaussian SIGMA_SECONDS |
//! --median WINDOW_SECONDS [--track NAME]... -o OUT` (issue 32): smooths tracks
//! (`tangent::smooth`), one line per track on stdout, the output written only if every track
//! chosen was smoothed. Errors go back to `main`.

use std::io::{BufWriter, Write};
use std::path::Path;

use anyhow::{anyhow, bail, Result};
use tangent::io::{load_project, save_project};
use tangent::model::{Interpolation, Project};
use tangent::smooth::{smooth_tracks, Filter, DEFAULT_ORDER};

/// The filter from the command line's options (clap's group makes exactly one present;
/// `--order` goes only with `--butterworth`, checked here: clap 4's `requires` did not refuse
/// `--gaussian S --order N`).
pub fn chosen_filter(butterworth: Option<f64>, order: Option<usize>, gaussian: Option<f64>, median: Option<f64>) -> Result<Filter> {
    Ok(match (butterworth, gaussian, median) {
        (Some(cutoff), _, _) => Filter::butterworth(cutoff, order.unwrap_or(DEFAULT_ORDER))?,
        _ if order.is_some() => bail!("--order goes with --butterworth only"),
        (_, Some(sigma), _) => Filter::gaussian(sigma)?,
        (_, _, Some(window)) => Filter::median(window)?,
        _ => unreachable!("clap requires one filter"),
    })
}

/// The indices of the tracks named (each must exist), or of every track but Step tracks (and
/// the names of the Step tracks left out).
fn chosen(project: &Project, file: &Path, names: &[String]) -> Result<(Vec<usize>, Vec<String>)> {
    if names.is_empty() {
        let (step, rest): (Vec<usize>, Vec<usize>) = (0..project.tracks.len()).partition(|&i| project.tracks[i].interpolation == Interpolation::Step);
        if rest.is_empty() {
            bail!("{}: no tracks to smooth (Step tracks are not smoothed)", file.display());
        }
        return Ok((rest, step.iter().map(|&i| project.tracks[i].name.clone()).collect()));
    }
    let which = names
        .iter()
        .map(|name| {
            project.tracks.iter().position(|t| &t.name == name).ok_or_else(|| anyhow!("--track {name}: no track named \"{name}\" in {}", file.display()))
        })
        .collect::<Result<Vec<usize>>>()?;
    Ok((which, Vec::new()))
}

/// Smooths the chosen tracks (in parallel) and prints, per track: name, filter, keys,
/// whether resampled (and at what rate), the largest difference between the old and new
/// curves (value units, or degrees for rotations). If any track fails, every failure is
/// the error (one line each), nothing is printed on stdout and nothing written.
pub fn smooth(file: &Path, filter: Result<Filter>, names: &[String], output: &Path) -> Result<()> {
    let filter = filter?;
    let mut project = load_project(file)?;
    let (which, skipped) = chosen(&project, file, names)?;
    let results = smooth_tracks(&project.tracks, &which, &filter);
    let failed: Vec<String> =
        which.iter().zip(&results).filter_map(|(&i, r)| r.as_ref().err().map(|e| format!("track \"{}\": {e}", project.tracks[i].name))).collect();
    if !failed.is_empty() {
        bail!("{}\nnothing written", failed.join("\n"));
    }
    let mut out = BufWriter::new(std::io::stdout().lock());
    for name in &skipped {
        writeln!(out, "{name}\tskipped: Step track")?;
    }
    let mut smoothed = Vec::with_capacity(which.len());
    for (&i, r) in which.iter().zip(results) {
        let s = r?;
        let resampled = match s.resampled {
            Some(spacing) => format!("resampled at {:.6} s ({:.6} Hz): keys were not uniform", spacing, s.rate),
            None => format!("uniform at {:.6} Hz", s.rate),
        };
        let unit = if s.unit().is_empty() { " value units".to_owned() } else { format!(" {}", s.unit()) };
        writeln!(out, "{}\t{}\t{} keys\t{resampled}\tmax difference {:.6}{unit}", s.track.name, filter.describe(), s.keys, s.max_difference)?;
        smoothed.push((i, s.track));
    }
    for (i, track) in smoothed {
        project.tracks[i] = track;
    }
    save_project(output, &project)?;
    writeln!(out, "wrote {}", output.display())?;
    Ok(())
}
