//! Track > Convert rotation…: the Quat and Euler tracks of the selected keys (or the active
//! track) converted the other way ([`crate::euler_tracks`]) — Quat -> Euler in an order chosen
//! here (Blender's meaning), Euler -> Quat as the fewest quaternion keys within an angle in
//! degrees. Not previewed: the window lists each target and what it becomes; Convert runs the
//! conversion on a worker (Euler -> Quat measures densely and can take a while on long tracks)
//! with its progress and Stop, and its result is put in place as one undo step when it
//! arrives, if the document, its revision and the selection are still those it was made for.

use eframe::egui;

use crate::app::document::targets::Targets;
use crate::app::document::DocState;
use crate::app::message::Status;
use crate::app::tool::{Drawn, Tool, ToolInfo, ToolMenu, ToolResult, ToolText, ToolView};
use crate::euler::EulerOrder;
use crate::euler_tracks::{euler_to_quat, quat_to_euler};
use crate::{Track, TrackKind};

/// The order combo box's tooltip.
const ORDER_TIP: &str = "Blender's meaning: XYZ applies X first (R = Rz·Ry·Rx); the Euler track gets this order";

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

/// One track converted, and what the conversion found.
#[derive(Debug)]
pub struct Rotated {
    pub track: Track,
    pub report: RotationReport,
}

/// `track` converted the other way (Quat -> Euler in `options.order`, Euler -> Quat within
/// `options.angle_deg`).
///
/// # Errors
/// When the track is not a rotation, not valid, or the angle is out of range.
pub fn convert_rotation(track: &Track, options: RotationOptions) -> Result<Rotated, String> {
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
    Ok(Rotated { track, report })
}

pub struct ConvertRotation;

impl Tool for ConvertRotation {
    type Settings = RotationOptions;
    type Asked = RotationOptions;
    type Report = Rotated;

    const INFO: &'static ToolInfo = &ToolInfo {
        name: "Convert rotation",
        text: "Convert rotation…",
        tooltip: "Quat tracks of the selected keys (or the active track) become Euler angles in an order you choose (hemisphere flips reported); Euler tracks become the fewest quaternion keys within an angle",
        menus: &[ToolMenu::Track],
        shortcut: None,
    };
    const TEXT: ToolText = ToolText {
        working: "converting…",
        again: "converting…",
        nothing: "Nothing to convert: select keys on a Quat or Euler track, or click one.",
        apply: "Convert",
        apply_tips: ("Convert these tracks, as one undo step", "Nothing to convert, or a conversion is under way"),
        columns: &[],
    };
    const PREVIEWS: bool = false;
    const GHOST: bool = false;

    /// What it does, then the order Quat tracks become Euler in and the angle Euler tracks are
    /// kept within (each shown when a target needs it).
    fn controls(ui: &mut egui::Ui, options: &mut RotationOptions, view: &ToolView<'_>) {
        let targets = view.doc.rotation_targets();
        let tracks = &view.doc.project().tracks;
        let (any_quat, any_euler) = (targets.iter().any(|&t| tracks[t].kind == TrackKind::Quat), targets.iter().any(|&t| tracks[t].kind == TrackKind::Euler));
        ui.label("Quat tracks become Euler angles (the same key times, continuous angles); Euler tracks become the fewest quaternion keys that stay within an angle of their rotation.");
        if targets.is_empty() {
            ui.label(Self::TEXT.nothing);
        }
        egui::Grid::new("rotation options").num_columns(2).show(ui, |ui| {
            if any_quat {
                ui.label("Euler order").on_hover_text(ORDER_TIP);
                let order = &mut options.order;
                let r = egui::ComboBox::from_id_salt("convert order").selected_text(order.name()).show_ui(ui, |ui| {
                    for o in EulerOrder::ALL {
                        ui.selectable_value(order, o, o.name()).on_hover_text(ORDER_TIP);
                    }
                });
                r.response.accessible_name("convert order").on_hover_text(ORDER_TIP);
                ui.end_row();
            }
            if any_euler {
                ui.label("within").on_hover_text("The largest angle between the Euler track's rotation and the quaternion keys', measured");
                ui.add(egui::DragValue::new(&mut options.angle_deg).range(1e-4..=90.0).speed(0.001).max_decimals(4).suffix("°"))
                    .on_hover_text("Angle bound in degrees: the fewest Slerp or Bézier quaternion keys that stay within it")
                    .accessible_name("convert angle");
                ui.end_row();
            }
        });
    }

    fn asked(options: &RotationOptions, _view: &ToolView<'_>) -> Result<RotationOptions, String> {
        Ok(*options)
    }

    /// The Quat and Euler tracks of the selected keys, or the active track.
    fn targets(doc: &DocState) -> Targets {
        doc.rotation_targets().into_iter().map(|t| (t, None)).collect()
    }

    fn run_track(track: &Track, _keys: Option<&[usize]>, options: &RotationOptions) -> Result<Rotated, String> {
        convert_rotation(track, *options)
    }

    fn new_track(r: &Rotated) -> Option<&Track> {
        Some(&r.track)
    }

    fn row(_ui: &mut egui::Ui, _r: &Rotated) {}

    fn planned(track: &Track, options: &RotationOptions) -> String {
        match track.kind {
            TrackKind::Euler => format!("Euler {} -> Quat within {}°", track.order.name(), options.angle_deg),
            _ => format!("Quat -> Euler {}", options.order.name()),
        }
    }

    fn drawn(_made: &ToolResult<Self>) -> Drawn {
        Drawn::Nothing
    }

    /// The converted tracks' keys leave the selection; a track that could not be converted,
    /// or is locked, stays as it was.
    fn apply(doc: &mut DocState, made: &ToolResult<Self>) -> Status {
        const LABEL: &str = "Convert rotation";
        let (applied, refusal) = made.replace_in(doc);
        let refused = made.tracks.iter().find_map(|t| t.result.as_ref().err().cloned()).or(refusal);
        let reports: Vec<(usize, String, RotationReport)> =
            made.reports().filter(|(t, _)| applied.contains(&t.index)).map(|(t, r)| (t.index, t.name.clone(), r.report.clone())).collect();
        doc.deselect_tracks(&applied);
        let mut text = conversion_text(&reports);
        if let Some(body) = made.body.text() {
            text = format!("{text}. {body}");
        }
        match (reports.is_empty(), refused) {
            (true, Some(e)) => Status::error(format!("{LABEL}: {e}")),
            (true, None) => Status::message(format!("{LABEL}: select keys on a Quat or Euler track, or click one")),
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
