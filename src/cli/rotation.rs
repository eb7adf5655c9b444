//! The command-line subcommands for rotation tracks (SPEC §13): `tangent filter --euler`
//! (the Euler filter) and `tangent convert --to-euler ORDER | --to-quat` (Quat ↔ Euler).
//! Output goes to stdout only on success; errors go back to `main`.

use std::io::{BufWriter, Write};
use std::path::Path;

use anyhow::{anyhow, bail, Result};
use tangent::euler::EulerOrder;
use tangent::euler_tracks::{euler_to_quat, filter_track, quat_to_euler};
use tangent::io::{load_project, save_project};
use tangent::model::{Project, TrackKind};

/// The indices of the tracks named (each must exist), or of every track of `kind` if none is.
fn chosen(project: &Project, file: &Path, names: &[String], kind: TrackKind) -> Result<Vec<usize>> {
    if names.is_empty() {
        let all: Vec<usize> = (0..project.tracks.len()).filter(|&i| project.tracks[i].kind == kind).collect();
        if all.is_empty() {
            bail!("{}: no {kind:?} tracks", file.display());
        }
        return Ok(all);
    }
    names
        .iter()
        .map(|name| {
            let i = project
                .tracks
                .iter()
                .position(|t| &t.name == name)
                .ok_or_else(|| anyhow!("--track {name}: no track named \"{name}\" in {}", file.display()))?;
            let k = project.tracks[i].kind;
            if k != kind {
                bail!("--track {name}: \"{name}\" is a {k:?} track, not {kind:?}");
            }
            Ok(i)
        })
        .collect()
}

/// `tangent filter FILE --euler [--track NAME]... -o OUT`: prints one line per track (name,
/// keys changed) and the total; the output is written only if every track filtered.
pub fn filter_euler(file: &Path, names: &[String], output: &Path) -> Result<()> {
    let mut project = load_project(file)?;
    let which = chosen(&project, file, names, TrackKind::Euler)?;
    let mut out = BufWriter::new(std::io::stdout().lock());
    let mut total = 0;
    for i in which {
        let (filtered, changed) = filter_track(&project.tracks[i])?;
        writeln!(out, "{}\t{} of {} keys changed", filtered.name, changed, filtered.keys.len())?;
        total += changed;
        project.tracks[i] = filtered;
    }
    save_project(output, &project)?;
    writeln!(out, "total\t{total} keys changed\twrote {}", output.display())?;
    Ok(())
}

/// What `tangent convert` turns rotation tracks into.
#[derive(Clone, Copy, Debug)]
pub enum Conversion {
    /// Quat tracks to Euler angles in this order.
    ToEuler(EulerOrder),
    /// Euler tracks to quaternion keys within this angle in degrees.
    ToQuat(f64),
}

/// `tangent convert FILE (--to-euler ORDER | --to-quat [--angle DEG]) [--track NAME]... -o OUT`:
/// one line per track with what was found (hemisphere flips; keys and measured error).
pub fn convert(file: &Path, conversion: Conversion, names: &[String], output: &Path) -> Result<()> {
    let mut project = load_project(file)?;
    let kind = match conversion {
        Conversion::ToEuler(_) => TrackKind::Quat,
        Conversion::ToQuat(_) => TrackKind::Euler,
    };
    let which = chosen(&project, file, names, kind)?;
    let mut out = BufWriter::new(std::io::stdout().lock());
    for i in which {
        let track = &project.tracks[i];
        let converted = match conversion {
            Conversion::ToEuler(order) => {
                let r = quat_to_euler(track, order)?;
                let flips = if r.hemisphere_flips.is_empty() {
                    "no hemisphere flips".to_owned()
                } else {
                    format!("{} hemisphere flips (after keys {:?})", r.hemisphere_flips.len(), r.hemisphere_flips)
                };
                writeln!(out, "{}\tQuat -> Euler {order}\t{} keys\t{flips}", track.name, r.track.keys.len())?;
                r.track
            }
            Conversion::ToQuat(angle) => {
                let r = euler_to_quat(track, angle)?;
                writeln!(
                    out,
                    "{}\tEuler {} -> Quat {:?}\t{} -> {} keys\tmax error {:.6} deg (bound {angle} deg)",
                    track.name, track.order, r.track.interpolation, r.keys_before, r.keys_after, r.max_error_deg
                )?;
                if r.max_error_deg > angle {
                    bail!("track \"{}\": no conversion stayed within {angle} degrees (measured {:.6})", track.name, r.max_error_deg);
                }
                r.track
            }
        };
        project.tracks[i] = converted;
    }
    save_project(output, &project)?;
    writeln!(out, "wrote {}", output.display())?;
    Ok(())
}
