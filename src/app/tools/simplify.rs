//! Key > Simplify…: key reduction ([`crate::reduce`]) of the selected tracks (those of the
//! selected keys, or the active track) with a tolerance slider, or, bounded on the body (issue
//! 43), of every joint track of the skeleton so that no joint moves more than E. The graph
//! draws each reduced curve and its keys over the original, inside the band ±E around it; the
//! table gives each track's key counts and measured error, or why it was kept.

use eframe::egui;

use crate::app::document::targets::Targets;
use crate::app::document::DocState;
use crate::app::jobs::Worker;
use crate::app::message::Status;
use crate::app::tool::{per_track, Drawn, Tool, ToolInfo, ToolMenu, ToolResult, ToolText, ToolView, Worked};
use crate::app::units::{fmt_measured, reduction, Largest};
use crate::reduce::{reduce_track, Reduced, Tolerance, DEFAULT_ANGLE_DEG};
use crate::{Project, Track};

/// The tolerance, the angle, and the bound on the body (on, and E in file units).
pub struct Settings {
    tolerance: f64,
    angle: f64,
    on_body: bool,
    body_bound: f64,
}

impl Default for Settings {
    fn default() -> Self {
        Self { tolerance: 1e-3, angle: DEFAULT_ANGLE_DEG * 10.0, on_body: false, body_bound: 0.0 }
    }
}

/// What a reduction is made for: the tolerance, the angle, and the bound on the body if that
/// mode is on (then every joint track of the skeleton is reduced).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Asked {
    pub tolerance: f64,
    pub angle: f64,
    pub body_bound: Option<f64>,
}

pub struct Simplify;

/// The skeleton's size, if the project has one that binds.
fn skeleton_size(project: &Project) -> Option<f64> {
    project.skeleton.as_ref().and_then(|_| crate::body::Rig::new(project).ok()).map(|r| r.size())
}

impl Tool for Simplify {
    type Settings = Settings;
    type Asked = Asked;
    type Report = Reduced;

    const INFO: &'static ToolInfo = &ToolInfo {
        name: "Simplify",
        text: "Simplify…",
        tooltip: "Replace the keys of the selected tracks (or the active track) by the fewest Bézier keys within a tolerance, previewed over the original",
        menus: &[ToolMenu::Edit, ToolMenu::Key],
        shortcut: None,
    };
    const TEXT: ToolText = ToolText {
        working: "measuring…",
        again: "measuring the new tolerance…",
        nothing: "Nothing to simplify: select keys on a track, or click one.",
        apply: "Apply",
        apply_tips: ("Replace these tracks' keys, as one undo step", "Nothing to reduce within this tolerance, or the preview is being made"),
        columns: &["keys", "max error"],
    };

    fn controls(ui: &mut egui::Ui, s: &mut Settings, view: &ToolView<'_>) {
        let size = skeleton_size(view.doc.project());
        if s.body_bound <= 0.0 {
            s.body_bound = size.map_or(0.0, |s| 1e-3 * s);
        }
        ui.label("The fewest Bézier keys that stay within the tolerance of the curve (measured, not assumed).");
        ui.horizontal(|ui| {
            ui.label("tolerance (file units)");
            ui.add(egui::Slider::new(&mut s.tolerance, 1e-6..=1.0).logarithmic(true).custom_formatter(|v, _| format!("{v:.0e}")))
                .on_hover_text("Largest distance from the original curve of Scalar and vector tracks, in file units (Euclidean over a vector's components). Rotation tracks, Quat and Euler, are bounded by the angle below")
                .accessible_name("simplify tolerance");
        });
        if let Some(size) = size {
            ui.horizontal(|ui| {
                ui.checkbox(&mut s.on_body, "Bound on the body").on_hover_text("Reduce every joint track of the skeleton so that no joint or end site moves more than E from the original at any time (the error shared down the hierarchy: docs/problems.md); the tolerance fields are then not used");
                ui.add_enabled(s.on_body, egui::DragValue::new(&mut s.body_bound).range(1e-9..=size.max(1e-9)).speed(size * 1e-4).suffix(" file units"))
                    .on_hover_text(format!("E: the largest displacement of any joint, in file units (the skeleton's size is {size:.4}; {:.3}% of it now)", 100.0 * s.body_bound / size))
                    .accessible_name("body bound");
            });
        }
        ui.horizontal(|ui| {
            ui.label("rotations, Quat and Euler (deg)");
            ui.add(egui::Slider::new(&mut s.angle, 0.001..=10.0).logarithmic(true).suffix("°"))
                .on_hover_text("Largest angle between the original and the reduced rotation, in degrees, for Quat and Euler tracks alike (an Euler track's three angles are fitted so that the rotation they make stays within it, measured in the track's order)")
                .accessible_name("simplify angle");
        });
    }

    fn asked(s: &Settings, view: &ToolView<'_>) -> Result<Asked, String> {
        Tolerance::new(s.tolerance, s.angle).map_err(|e| e.to_string())?;
        let on_body = s.on_body && s.body_bound > 0.0 && skeleton_size(view.doc.project()).is_some();
        Ok(Asked { tolerance: s.tolerance, angle: s.angle, body_bound: on_body.then_some(s.body_bound) })
    }

    /// The selected tracks whole (every track when none is selected or active).
    fn targets(doc: &DocState) -> Targets {
        let tracks = doc.target_tracks();
        if tracks.is_empty() {
            return (0..doc.project().tracks.len()).map(|t| (t, None)).collect();
        }
        tracks.into_iter().map(|t| (t, None)).collect()
    }

    fn run_track(track: &Track, _keys: Option<&[usize]>, asked: &Asked) -> Result<Reduced, String> {
        let tol = Tolerance::new(asked.tolerance, asked.angle).map_err(|e| e.to_string())?;
        reduce_track(track, tol).map_err(|e| e.to_string())
    }

    /// By the tolerance, track by track; bounded on the body, every joint track of the
    /// skeleton at once ([`crate::reduce::body::reduce_on_body`]).
    fn run(project: &Project, targets: &Targets, asked: &Asked, w: &Worker) -> Option<Worked<Reduced>> {
        let Some(bound) = asked.body_bound else { return per_track(project, targets, w, |t, keys| Self::run_track(t, keys, asked)) };
        let worked = match crate::reduce::body::reduce_on_body(project, bound, &|_| {}) {
            Ok(r) => Worked {
                tracks: r.tracks.into_iter().map(|(i, result)| (i, result.map_err(|e| e.to_string()))).collect(),
                note: Some(format!(
                    "{} -> {} keys of the skeleton's tracks, within {bound:.4} file units on the body (the budget at {:.2}x its guaranteed share)",
                    r.keys_before, r.keys_after, r.scale
                )),
            },
            Err(e) => Worked { tracks: Vec::new(), note: Some(format!("Bound on the body: {e}")) },
        };
        (!w.cancelled()).then_some(worked)
    }

    fn new_track(r: &Reduced) -> Option<&Track> {
        r.kept.is_none().then_some(&r.track)
    }

    fn row(ui: &mut egui::Ui, x: &Reduced) {
        if x.kept.is_none() {
            ui.label(format!("{} -> {}", x.keys_before, x.keys_after));
            ui.label(fmt_measured(x.max_error, reduction(x.track.kind), 2));
        } else {
            ui.label(format!("{}", x.keys_before));
            ui.label(format!("kept: {}", x.kept.as_deref().unwrap_or("")));
        }
    }

    /// The reduced curve and its keys inside ±E (no band when bounded on the body: its bound
    /// is the body's).
    fn drawn(made: &ToolResult<Self>) -> Drawn {
        Drawn::Band(made.asked.body_bound.is_none().then_some(made.asked.tolerance))
    }

    /// Tracks kept as they were, or that failed, stay; the reduced tracks' keys leave the
    /// selection.
    fn apply(doc: &mut DocState, made: &ToolResult<Self>) -> Status {
        let (applied, refused) = made.replace_in(doc);
        let refused = refused.map(|e| format!("{e}, left as it was"));
        doc.deselect_tracks(&applied);
        let (mut done, mut before, mut after, mut worst) = (0, 0, 0, Largest::default());
        for (_, x) in made.reports().filter(|(t, _)| applied.contains(&t.index)) {
            (done, before, after) = (done + 1, before + x.keys_before, after + x.keys_after);
            worst.add(x.max_error, reduction(x.track.kind));
        }
        if done == 0 {
            return refused
                .map_or_else(|| Status::message("Simplify: no track could be made smaller within the tolerance"), |e| Status::error(format!("Simplify: {e}")));
        }
        let tracks = if done == 1 { "track" } else { "tracks" };
        let text = format!("Simplified {done} {tracks}: {before} -> {after} keys, largest error {}", worst.text(2));
        refused.map_or_else(|| Status::message(text.clone()), |e| Status::error(format!("{text}; {e}")))
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use super::*;
    use crate::app::key_change::KeyRef;
    use crate::app::tool::made_now;
    use crate::{Interpolation, Key, TrackKind};

    /// Simplify of two dense tracks, the second locked: the first is reduced with the curve
    /// the worker compiled, the locked one stays and says so, only the reduced track's keys
    /// leave the selection, and one undo brings the first back.
    #[test]
    fn simplify_skips_a_locked_track_and_applies_the_rest() {
        let dense = |name: &str| {
            Track::new(name, TrackKind::Scalar, Interpolation::Linear)
                .with_keys((0..=120).map(|i| Key::new(f64::from(i) / 60.0, vec![f64::from(i) / 60.0])).collect())
        };
        let mut locked = dense("locked");
        locked.locked = true;
        let mut d = DocState::new(Project { tracks: vec![dense("free"), locked], ..Project::default() }, None);
        let before = d.project().clone();
        d.selection = BTreeSet::from([KeyRef { track: 0, key: 100 }, KeyRef { track: 1, key: 100 }]).into();
        let made = made_now::<Simplify>(&d, Asked { tolerance: 1e-6, angle: 1.0, body_bound: None });
        let s = made.0.apply(&mut d);
        assert!(s.text.starts_with("Simplified 1 track: 121 -> 2 keys") && s.text.ends_with("track \"locked\" is locked, left as it was"), "{}", s.text);
        assert_eq!(d.project().tracks[0].keys.len(), 2, "a line needs two keys");
        assert_eq!(d.project().tracks[1], before.tracks[1]);
        assert_eq!(d.selection.iter().copied().collect::<Vec<_>>(), [KeyRef { track: 1, key: 100 }]);
        assert!((d.curve(0).unwrap().as_ref().unwrap().evaluator().value_at(1.5)[0] - 1.5).abs() <= 1e-6, "the reduced line's curve is in place");
        d.undo();
        assert_eq!(d.project(), &before);
    }
}
