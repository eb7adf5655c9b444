//! Rotation tracks on the document side, without egui: which tracks Edit > Euler Filter and
//! Track > Convert Rotation… act on (those of the selected keys, or the active track), the
//! conversion of each track ([`crate::euler_tracks`]: Quat -> Euler in an order, Euler -> Quat
//! within an angle) compiled — free of the editor's state, so a worker runs it — and the
//! converted tracks put in place as one undo step. The filter itself is planned like any
//! change of keys (`planner::plan_euler_filter`).

use super::DocState;
use crate::app::payload::{Basis, CompiledTrack, Status};
use crate::euler::EulerOrder;
use crate::euler_tracks::{euler_to_quat, quat_to_euler};
use crate::{Project, Track, TrackKind};

/// The angle Euler -> Quat keeps the rotation within by default, in degrees.
pub const DEFAULT_ANGLE_DEG: f64 = 0.01;

/// What Track > Convert Rotation… asks: the order Quat tracks become Euler angles in, and the
/// angle (degrees) Euler tracks' rotations are kept within as quaternion keys.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RotationOptions {
    pub order: EulerOrder,
    pub angle_deg: f64,
}

impl Default for RotationOptions {
    fn default() -> Self {
        Self { order: EulerOrder::XYZ, angle_deg: DEFAULT_ANGLE_DEG }
    }
}

/// What converting one track did.
#[derive(Clone, Debug, PartialEq)]
pub enum RotationReport {
    /// Quat -> Euler in `order`: the key pairs `(i, i + 1)` whose quaternions were in opposite
    /// hemispheres (slerp turned the short way there; the angles need no such flip).
    ToEuler { order: EulerOrder, hemisphere_flips: Vec<usize> },
    /// Euler -> Quat: keys before and after, and the largest angle measured between the two
    /// rotations, in degrees.
    ToQuat { keys_before: usize, keys_after: usize, max_error_deg: f64 },
}

/// One track converted, and compiled.
#[derive(Clone, Debug)]
pub struct ConvertedRotation {
    pub track: Track,
    pub compiled: CompiledTrack,
    pub report: RotationReport,
}

/// Track > Convert Rotation… made for one set of options and one basis: each target track
/// (index, name) converted, or why not. Put in place only while its basis holds.
#[derive(Clone, Debug)]
pub struct Rotations {
    pub options: RotationOptions,
    pub made_for: Basis,
    pub tracks: Vec<(usize, String, Result<ConvertedRotation, String>)>,
    /// How far the conversion moves the body.
    pub body: crate::app::body::BodyChange,
}

/// Two conversions are the same if made with the same options for the same basis and tracks.
impl PartialEq for Rotations {
    fn eq(&self, other: &Self) -> bool {
        let names = |r: &Self| r.tracks.iter().map(|(i, name, _)| (*i, name.clone())).collect::<Vec<_>>();
        (self.options, self.made_for) == (other.options, other.made_for) && names(self) == names(other)
    }
}

/// `track` converted the other way (Quat -> Euler in `options.order`, Euler -> Quat within
/// `options.angle_deg`) and compiled.
///
/// # Errors
/// When the track is not a rotation, not valid, or the angle is out of range.
pub fn convert_rotation(track: &Track, options: RotationOptions) -> Result<ConvertedRotation, String> {
    let (track, report) = match track.kind {
        TrackKind::Quat => {
            let c = quat_to_euler(track, options.order).map_err(|e| e.to_string())?;
            (c.track, RotationReport::ToEuler { order: options.order, hemisphere_flips: c.hemisphere_flips })
        }
        TrackKind::Euler => {
            let c = euler_to_quat(track, options.angle_deg).map_err(|e| e.to_string())?;
            (c.track, RotationReport::ToQuat { keys_before: c.keys_before, keys_after: c.keys_after, max_error_deg: c.max_error_deg })
        }
        kind => return Err(format!("track \"{}\" is {kind:?}, not a rotation", track.name)),
    };
    let compiled = CompiledTrack::of(&track);
    if let Err(e) = &compiled.curve {
        return Err(e.to_string());
    }
    Ok(ConvertedRotation { track, compiled, report })
}

/// Tracks `targets` of `project` converted ([`convert_rotation`]) on every core, made for
/// `made_for`; `None` once `cancelled()` says so (tracks not begun are left). `done()` is
/// called after each track.
pub fn convert_rotations(
    project: &Project,
    targets: &[usize],
    options: RotationOptions,
    made_for: Basis,
    (cancelled, done): (&(dyn Fn() -> bool + Sync), &(dyn Fn() + Sync)),
) -> Option<Rotations> {
    use rayon::prelude::*;
    let tracks = targets
        .par_iter()
        .filter_map(|&i| project.tracks.get(i).map(|t| (i, t)))
        .map(|(i, t)| {
            let converted = if cancelled() { Err("cancelled".to_owned()) } else { convert_rotation(t, options) };
            done();
            (i, t.name.clone(), converted)
        })
        .collect::<Vec<_>>();
    let body = crate::app::body::BodyChange::measure(project, tracks.iter().filter_map(|(i, _, r)| Some((*i, &r.as_ref().ok()?.compiled.curve))));
    (!cancelled()).then_some(Rotations { options, made_for, tracks, body })
}

impl DocState {
    /// The tracks of the selected keys (or the active track) that are `kind`.
    fn targets_of(&self, keep: impl Fn(TrackKind) -> bool) -> Vec<usize> {
        self.convert_targets().into_iter().filter(|&t| keep(self.project().tracks[t].kind)).collect()
    }

    /// What Track > Convert Rotation… acts on: the Quat and Euler tracks of the selected keys,
    /// or the active track.
    #[must_use]
    pub fn rotation_targets(&self) -> Vec<usize> {
        self.targets_of(TrackKind::is_rotation)
    }

    /// What Edit > Euler Filter acts on: the Euler tracks of the selected keys, or the active
    /// track.
    #[must_use]
    pub fn euler_targets(&self) -> Vec<usize> {
        self.targets_of(|k| k == TrackKind::Euler)
    }

    /// Puts converted rotation tracks in place (with the curves their worker compiled), as one
    /// undo step; their keys leave the selection. The dispatcher applies it only while its
    /// basis holds. A track that could not be converted, or is locked, stays as it was.
    pub fn apply_rotations(&mut self, rotations: std::sync::Arc<Rotations>) -> Status {
        const LABEL: &str = "Convert rotation";
        let Rotations { tracks, body, .. } = std::sync::Arc::unwrap_or_clone(rotations);
        let (mut replace, mut made, mut refused) = (Vec::new(), Vec::new(), None);
        for (index, name, result) in tracks {
            match result {
                Ok(ConvertedRotation { track, compiled, report }) => {
                    made.push((index, name, report));
                    replace.push((index, track, compiled));
                }
                Err(e) => _ = refused.get_or_insert(e),
            }
        }
        let (applied, refusal) = self.replace_tracks(LABEL, replace);
        refused = refused.or(refusal);
        let reports: Vec<(usize, String, RotationReport)> = made.into_iter().filter(|(i, _, _)| applied.contains(i)).collect();
        let converted: Vec<usize> = reports.iter().map(|(i, _, _)| *i).collect();
        self.deselect_tracks(&converted);
        let mut text = conversion_text(&reports);
        if let Some(body) = body.text() {
            text = format!("{text}. {body}");
        }
        match (reports.is_empty(), refused) {
            (true, Some(e)) => Status::error(format!("Convert rotation: {e}")),
            (true, None) => Status::message("Convert rotation: select keys on a Quat or Euler track, or click one"),
            (false, Some(e)) => Status::error(format!("{text}; {e}, left as it was")),
            (false, None) => Status::message(text),
        }
    }
}

/// "Converted "spin" Quat -> Euler XYZ (2 hemisphere flips found: keys 3-4, 7-8); "rot"
/// Euler -> Quat: 120 -> 14 keys, max error 4.30e-3°"; past [`NAMED`] tracks, the sums.
fn conversion_text(reports: &[(usize, String, RotationReport)]) -> String {
    const NAMED: usize = 3;
    if reports.len() > NAMED {
        return conversion_sums(reports);
    }
    let parts: Vec<String> = reports
        .iter()
        .map(|(_, name, report)| match report {
            RotationReport::ToEuler { order, hemisphere_flips } => format!("\"{name}\" Quat -> Euler {} ({})", order.name(), flips_found(hemisphere_flips)),
            RotationReport::ToQuat { keys_before, keys_after, max_error_deg } => {
                format!("\"{name}\" Euler -> Quat: {keys_before} -> {keys_after} keys, max error {max_error_deg:.2e}°")
            }
        })
        .collect();
    format!("Converted {}", parts.join("; "))
}

/// "no hemisphere flips found", "2 hemisphere flips found: keys 3-4, 7-8".
fn flips_found(flips: &[usize]) -> String {
    const LISTED: usize = 5;
    match flips.len() {
        0 => "no hemisphere flips found".to_owned(),
        n => {
            let at: Vec<String> = flips.iter().take(LISTED).map(|i| format!("{i}-{}", i + 1)).collect();
            let more = if n > LISTED { ", …" } else { "" };
            format!("{n} hemisphere flip{} found: keys {}{more}", if n == 1 { "" } else { "s" }, at.join(", "))
        }
    }
}

/// "Converted 12 tracks Quat -> Euler (5 hemisphere flips found) and 3 tracks Euler -> Quat
/// (900 -> 120 keys, max error 8.00e-3°)".
fn conversion_sums(reports: &[(usize, String, RotationReport)]) -> String {
    let (mut euler, mut flips, mut quat, mut before, mut after, mut worst) = (0, 0, 0, 0, 0, 0.0f64);
    for (_, _, report) in reports {
        match report {
            RotationReport::ToEuler { hemisphere_flips, .. } => (euler, flips) = (euler + 1, flips + hemisphere_flips.len()),
            RotationReport::ToQuat { keys_before, keys_after, max_error_deg } => {
                (quat, before, after, worst) = (quat + 1, before + keys_before, after + keys_after, worst.max(*max_error_deg));
            }
        }
    }
    let mut parts = Vec::new();
    if euler > 0 {
        parts.push(format!("{euler} tracks Quat -> Euler ({flips} hemisphere flips found)"));
    }
    if quat > 0 {
        parts.push(format!("{quat} tracks Euler -> Quat ({before} -> {after} keys, max error {worst:.2e}°)"));
    }
    format!("Converted {}", parts.join(" and "))
}
