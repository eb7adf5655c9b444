//! Key > Convert to Bézier…: the tracks of the selected keys (or the active track) from TCB,
//! Cubic or Linear into Bezier keys that draw the same curve ([`crate::convert::to_bezier`]);
//! a TCB segment with ease is not a cubic in time and gets the fewest extra keys within the
//! bound asked here. Previewed per track (the keys it will make, the largest difference
//! measured), at once for a few keys and on a worker above [`INLINE_KEYS`]; not drawn (the
//! curve is the same).

use eframe::egui;

use crate::app::document::targets::Targets;
use crate::app::document::DocState;
use crate::app::message::Status;
use crate::app::tool::{Drawn, Tool, ToolInfo, ToolMenu, ToolResult, ToolText, ToolView};
use crate::convert::Conversion;
use crate::{Interpolation, Track};

/// Target keys above which the preview is converted on a worker (with a spinner), so the
/// window stays responsive: converting a million keys takes about a second.
pub const INLINE_KEYS: usize = 20_000;

/// The bound eased segments keep.
pub struct Settings {
    bound: f64,
}

impl Default for Settings {
    fn default() -> Self {
        Self { bound: crate::DEFAULT_ACCURACY }
    }
}

pub struct ConvertToBezier;

/// The keys a conversion started from.
fn keys_before(c: &Conversion) -> usize {
    c.track.keys.len() - c.added_keys
}

impl Tool for ConvertToBezier {
    type Settings = Settings;
    type Asked = f64;
    type Report = Conversion;

    const INFO: &'static ToolInfo = &ToolInfo {
        name: "Convert to Bézier",
        text: "Convert to Bézier…",
        tooltip: "Turn the tracks of the selected keys (or the active track) from TCB, Cubic or Linear into Bezier keys without changing the curve; eased segments get the fewest extra keys within a bound you set",
        menus: &[ToolMenu::Key],
        shortcut: None,
    };
    const TEXT: ToolText = ToolText {
        working: "Converting the tracks to measure the difference…",
        again: "Converting the tracks to measure the difference…",
        nothing: "Nothing to convert: select keys on a TCB, Cubic or Linear track, or click one.",
        apply: "Convert",
        apply_tips: ("Convert these tracks, as one undo step", "No track here can be converted, or the preview is being made"),
        columns: &["keys", "largest difference"],
    };
    const GHOST: bool = false;
    const INLINE_KEYS: usize = INLINE_KEYS;

    fn controls(ui: &mut egui::Ui, s: &mut Settings, _view: &ToolView<'_>) {
        ui.label("TCB, Cubic and Linear keys become Bezier keys that draw the same curve.");
        ui.label("A TCB segment with ease is not a cubic in time: it gets the fewest extra keys that stay within the bound.");
        ui.horizontal(|ui| {
            ui.label("bound");
            ui.add(egui::Slider::new(&mut s.bound, 1e-9..=1e-1).logarithmic(true).custom_formatter(|v, _| format!("{v:.0e}")))
                .on_hover_text("The largest difference allowed between the eased TCB curve and its Bézier keys, in value units (radians for Euler angles)")
                .accessible_name("bound");
        });
    }

    fn asked(s: &Settings, _view: &ToolView<'_>) -> Result<f64, String> {
        Ok(s.bound)
    }

    /// The targets that are not Bezier already.
    fn targets(doc: &DocState) -> Targets {
        let tracks = &doc.project().tracks;
        doc.target_tracks().into_iter().filter(|&i| tracks[i].interpolation != Interpolation::Bezier).map(|i| (i, None)).collect()
    }

    fn run_track(track: &Track, _keys: Option<&[usize]>, bound: &f64) -> Result<Conversion, String> {
        crate::convert::to_bezier(track, *bound).map_err(|e| e.to_string())
    }

    fn new_track(c: &Conversion) -> Option<&Track> {
        Some(&c.track)
    }

    fn row(ui: &mut egui::Ui, c: &Conversion) {
        ui.label(format!("{} -> {}", keys_before(c), c.track.keys.len()));
        ui.label(format!("{:.1e}", c.max_difference));
    }

    fn summary(ui: &mut egui::Ui, made: &ToolResult<Self>) {
        let (before, after, worst) =
            made.reports().fold((0, 0, 0.0f64), |(b, a, w), (_, c)| (b + keys_before(c), a + c.track.keys.len(), w.max(c.max_difference)));
        ui.label(format!("{} tracks: {before} -> {after} keys, largest difference {worst:.1e}", made.tracks.len()));
    }

    fn drawn(_made: &ToolResult<Self>) -> Drawn {
        Drawn::Nothing
    }

    /// The converted tracks' keys leave the selection.
    fn apply(doc: &mut DocState, made: &ToolResult<Self>) -> Status {
        let (converted, refused) = made.replace_in(doc);
        let refused = made.tracks.iter().find_map(|t| t.result.as_ref().err().cloned()).or(refused);
        doc.deselect_tracks(&converted);
        let done: Vec<&Conversion> = made.reports().filter(|(t, _)| converted.contains(&t.index)).map(|(_, c)| c).collect();
        let added: usize = done.iter().map(|c| c.added_keys).sum();
        let worst = done.iter().map(|c| c.max_difference).fold(0.0f64, f64::max);
        let body = made.body.text().map(|t| format!(". {t}")).unwrap_or_default();
        match (done.len(), refused) {
            (0, Some(e)) => Status::error(format!("Convert to Bézier: {e}")),
            (0, None) => Status::message("Convert to Bézier: select keys or click a track first"),
            (n, _) => {
                let tracks = if n == 1 { "track" } else { "tracks" };
                Status::message(format!("Converted {n} {tracks} to Bézier keys ({added} keys added in eased segments; largest difference {worst:.1e}){body}"))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::key_change::KeyRef;
    use crate::app::tool::made_now;
    use crate::{Key, Project, TrackKind};

    /// A key of a Bezier track and one of a Linear track selected: only the Linear track is a
    /// target, its three keys stay three, and the curve is the same.
    #[test]
    fn the_preview_counts_keys_and_leaves_bezier_tracks_out() {
        let track =
            |name: &str, mode| Track::new(name, TrackKind::Scalar, mode).with_keys((0..3).map(|i| Key::new(f64::from(i), vec![f64::from(i % 2)])).collect());
        let project = Project { tracks: vec![track("b", Interpolation::Bezier), track("l", Interpolation::Linear)], ..Project::default() };
        let mut d = DocState::new(project, None);
        d.selection = [KeyRef { track: 0, key: 0 }, KeyRef { track: 1, key: 0 }].into_iter().collect::<std::collections::BTreeSet<_>>().into();
        let made = made_now::<ConvertToBezier>(&d, 1e-6);
        let p = made.of::<ConvertToBezier>().unwrap();
        assert_eq!(p.tracks.len(), 1);
        let c = &p.tracks[0].result.as_ref().unwrap().report;
        assert_eq!((p.tracks[0].name.as_str(), keys_before(c)), ("l", 3));
        assert_eq!(c.track.keys.len(), 3, "linear keys convert one to one");
        assert!(c.max_difference <= 1e-12, "{}", c.max_difference);
    }
}
