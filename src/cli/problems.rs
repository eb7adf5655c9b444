//! `tangent problems` and `tangent filter --jumps` (issue 43): the jumps of a take, listed
//! most severe first, and its spikes fixed (`src/problems.rs` states the rule).

use std::io::{BufWriter, Write};
use std::path::Path;

use anyhow::{bail, Context, Result};
use tangent::io::save_project;
use tangent::open::Opened;
use tangent::problems::{find_jumps, fix_spikes, JumpRule, JumpShape};
use tangent::{Project, TrackCurve};

/// A project file, or a file Tangent imports (a BVH take).
fn open(file: &Path) -> Result<Project> {
    Ok(match tangent::open::open_any(file)? {
        Opened::Project(p) => p,
        Opened::Imported(i) => i.project,
    })
}

/// The tracks named (each must exist); none named: every track.
fn chosen(project: &Project, file: &Path, names: &[String]) -> Result<Vec<usize>> {
    names
        .iter()
        .map(|name| {
            project.tracks.iter().position(|t| &t.name == name).with_context(|| format!("--track {name}: no track named \"{name}\" in {}", file.display()))
        })
        .collect()
}

/// `tangent problems FILE`: one line per problem, most severe first; nothing on a clean take.
pub fn problems(file: &Path) -> Result<()> {
    let project = open(file)?;
    let jumps = find_jumps(&project, &[], &JumpRule::default());
    let mut out = BufWriter::new(std::io::stdout().lock());
    for j in jumps {
        writeln!(out, "{j}")?;
    }
    out.flush()?;
    Ok(())
}

/// `tangent filter FILE --jumps [--track NAME]… -o OUT`: each spike replaced by the
/// interpolation across it; lasting steps reported, not changed. Prints per jump what was
/// done, per changed track the largest difference, and the body's largest displacement.
pub fn fix_jumps(file: &Path, names: &[String], output: &Path) -> Result<()> {
    let before = open(file)?;
    let which = chosen(&before, file, names)?;
    let jumps = find_jumps(&before, &which, &JumpRule::default());
    let mut after = before.clone();
    let mut lines = Vec::new();
    let mut tracks: Vec<usize> = jumps.iter().map(|j| j.track).collect();
    tracks.sort_unstable();
    tracks.dedup();
    for ti in tracks {
        let mine: Vec<_> = jumps.iter().filter(|j| j.track == ti).collect();
        let (fixed, changed) = fix_spikes(&before.tracks[ti], &mine);
        for j in &mine {
            let unit = if j.rotation { "°" } else { " file units" };
            lines.push(match j.shape {
                JumpShape::Spike { back } => format!(
                    "{}: spike at {:.4} s (frame {}), {} key{} replaced by the interpolation across it ({:.1}{unit} out)",
                    j.name,
                    j.time,
                    j.frame,
                    back - j.first,
                    if back - j.first == 1 { "" } else { "s" },
                    j.size
                ),
                JumpShape::Step => format!(
                    "{}: step at {:.4} s (frame {}) left as it is: turns {:.1}{unit} and does not come back (a flip that lasts)",
                    j.name, j.time, j.frame, j.size
                ),
            });
        }
        if changed > 0 {
            let old = TrackCurve::new(&before.tracks[ti]).with_context(|| format!("track \"{}\"", before.tracks[ti].name))?;
            let new = TrackCurve::new(&fixed).with_context(|| format!("track \"{}\" fixed", fixed.name))?;
            let unit = if fixed.kind.is_rotation() { " deg" } else { " file units" };
            lines.push(format!("{}: {changed} keys changed, largest difference {:.4}{unit}", fixed.name, tangent::smooth::max_difference(&old, &new)));
            after.tracks[ti] = fixed;
        }
    }
    if jumps.is_empty() {
        lines.push("no jumps found: nothing changed".to_owned());
    }
    if let Some(d) = tangent::body::project_difference(&before, &after)? {
        lines.push(format!(
            "body: largest joint displacement {:.6} file units at {}, {:.4} s ({:.3}% of the skeleton's size)",
            d.distance, d.point, d.time, d.percent
        ));
    }
    if output.exists() && output.canonicalize().ok() == file.canonicalize().ok() {
        bail!("-o {}: the output would replace the input; name another file", output.display());
    }
    save_project(output, &after)?;
    let mut out = BufWriter::new(std::io::stdout().lock());
    for line in lines {
        writeln!(out, "{line}")?;
    }
    writeln!(out, "wrote {}", output.display())?;
    out.flush()?;
    Ok(())
}

/// `tangent reduce FILE --body E [-o OUT]`: the fewest keys of the skeleton's tracks keeping
/// every joint and end site within E file units of the original (`reduce::body`). Prints per
/// track its keys and bound, the totals and the measured largest displacement.
pub fn reduce_on_body(file: &Path, bound: f64, output: Option<&Path>) -> Result<()> {
    let project = open(file)?;
    let bar = indicatif::ProgressBar::new_spinner();
    let reduced = tangent::reduce::body::reduce_on_body(&project, bound, &|what| bar.set_message(what.to_owned()))?;
    bar.finish_and_clear();
    let mut lines = Vec::new();
    for (ti, result) in &reduced.tracks {
        let name = &project.tracks[*ti].name;
        lines.push(match result {
            Ok(r) if r.kept.is_none() => format!("{name}\t{} -> {} keys", r.keys_before, r.keys_after),
            Ok(r) => format!("{name}\t{} keys\tkept: {}", r.keys_before, r.kept.as_deref().unwrap_or("")),
            Err(e) => format!("{name}\terror: {e}"),
        });
    }
    let d = &reduced.displacement;
    lines.push(format!(
        "keys: {} -> {} ({:.1}%), the budget at {:.3}x its guaranteed share",
        reduced.keys_before,
        reduced.keys_after,
        100.0 * reduced.keys_after as f64 / reduced.keys_before.max(1) as f64,
        reduced.scale
    ));
    lines.push(format!(
        "body: largest joint displacement {:?} file units at {}, {:.4} s ({:.4}% of the skeleton's size), bound {bound:?} file units",
        d.distance, d.point, d.time, d.percent
    ));
    if let Some(output) = output {
        save_project(output, &reduced.project)?;
        lines.push(format!("wrote {}", output.display()));
    }
    let mut out = BufWriter::new(std::io::stdout().lock());
    for line in lines {
        writeln!(out, "{line}")?;
    }
    out.flush()?;
    Ok(())
}
