//! Key > Scale time… (`S`): the factor S and the pivot (the playhead, or the selection's
//! centre, as Blender's graph editor offers). With keys selected, only they are scaled in time
//! ([`crate::retime::retime_keys`]: their handles' time extents with them, the unselected keys
//! where they are); with none, the active track whole ([`crate::retime::retime_track`]).
//! Previewed over a ghost of the original; the table gives, per track, the largest difference
//! measured (degrees for rotations) and the engine's notes — or, where a selected key would
//! land on or pass an unselected key, which one, in red, and Apply is off (Blender would merge
//! the keys; Tangent refuses rather than lose one). A negative S mirrors; a zero S is refused
//! here, with the valid range.

use eframe::egui;

use crate::app::document::targets::{plural, Pivot};
use crate::app::document::DocState;
use crate::app::key_change::KeyRef;
use crate::app::message::Status;
use crate::app::tool::{Tool, ToolInfo, ToolMenu, ToolResult, ToolText, ToolView};
use crate::app::units::{fmt_measured, Largest, Measured};
use crate::retime::{retime_keys, retime_track, RetimeError, Retimed};
use crate::Track;

/// S and the pivot.
pub struct Settings {
    scale: f64,
    pivot: Pivot,
}

impl Default for Settings {
    fn default() -> Self {
        Self { scale: 2.0, pivot: Pivot::Playhead }
    }
}

/// One track scaled in time, and how many of its keys were.
#[derive(Debug)]
pub struct ScaledTrack {
    pub retimed: Retimed,
    /// `Some((selected, keys))`: the track's `selected` selected keys of its `keys` were scaled
    /// (fewer than all: only they, the difference from the original at the same times; all:
    /// the whole track, exact); `None`: no key was selected, the whole track.
    pub scaled: Option<(usize, usize)>,
}

pub struct ScaleTime;

/// What Scale time is made for: the factor and the pivot time.
pub type Asked = (f64, f64);

impl Tool for ScaleTime {
    type Settings = Settings;
    type Asked = Asked;
    type Report = ScaledTrack;

    const INFO: &'static ToolInfo = &ToolInfo {
        name: "Scale time",
        text: "Scale time…",
        tooltip: "Scale the selected keys in time (their handles with them; the other keys stay) by a factor about the playhead or the selection's centre, as Blender's S; refused where a key would land on or pass an unselected key; with no key selected, the active track whole (exact); a negative factor mirrors; one undo step",
        menus: &[ToolMenu::Key],
        shortcut: Some(egui::KeyboardShortcut::new(egui::Modifiers::NONE, egui::Key::S)),
    };
    const TEXT: ToolText = ToolText {
        working: "scaling time…",
        again: "scaling time again…",
        nothing: "Nothing to scale: select keys on a track, or click one.",
        apply: "Apply",
        apply_tips: (
            "Scale these keys in time, as one undo step; the originals stay as a ghost",
            "Not while a key would land on or pass an unselected key, S is not valid, or the preview is being made",
        ),
        columns: &["max difference", "notes"],
    };

    fn controls(ui: &mut egui::Ui, s: &mut Settings, view: &ToolView<'_>) {
        ui.label(if view.doc.selection.is_empty() {
            "Stretches the active track in time (no key is selected): new(t) = old(pivot + (t − pivot)/S)."
        } else {
            "Scales the selected keys in time about the pivot, their handles with them; the other keys stay where they are."
        });
        ui.label("The original stays drawn as a ghost; the difference is measured over the curves, not only at keys.");
        ui.horizontal(|ui| {
            ui.label("S");
            ui.add(egui::DragValue::new(&mut s.scale).speed(0.01))
                .on_hover_text("The time factor: 2 doubles durations, 0.5 halves them, a negative factor mirrors time")
                .accessible_name("scale time factor");
        });
        ui.horizontal(|ui| {
            ui.label("pivot");
            ui.radio_value(&mut s.pivot, Pivot::Playhead, "playhead").on_hover_text("Scale about the playhead");
            ui.radio_value(&mut s.pivot, Pivot::SelectionCentre, "selection's centre").on_hover_text("Scale about the middle of the selected keys' time range");
        });
        ui.label(format!("about {:.3} s", view.doc.pivot_time(s.pivot, view.playhead)));
    }

    fn asked(s: &Settings, view: &ToolView<'_>) -> Result<Asked, String> {
        if s.scale.is_finite() && s.scale != 0.0 {
            Ok((s.scale, view.doc.pivot_time(s.pivot, view.playhead)))
        } else {
            Err(RetimeError::Scale(s.scale).to_string())
        }
    }

    fn run_track(track: &Track, keys: Option<&[usize]>, &(scale, pivot): &Asked) -> Result<ScaledTrack, String> {
        let retimed = match keys {
            Some(keys) => retime_keys(track, keys, scale, pivot),
            None => retime_track(track, scale, pivot),
        }
        .map_err(|e| e.to_string())?;
        Ok(ScaledTrack { retimed, scaled: keys.map(|k| (k.len(), track.keys.len())) })
    }

    fn new_track(r: &ScaledTrack) -> Option<&Track> {
        Some(&r.retimed.track)
    }

    fn row(ui: &mut egui::Ui, r: &ScaledTrack) {
        ui.label(fmt_measured(r.retimed.max_difference, Measured::of(r.retimed.track.kind, Measured::Degrees), 3));
        let mut notes = r.retimed.notes.clone();
        if let Some((scaled, keys)) = r.scaled.filter(|(scaled, keys)| scaled < keys) {
            notes.insert(0, format!("{scaled} of {keys} keys scaled; measured against the original at the same times"));
        }
        ui.label(if notes.is_empty() { "exact".to_owned() } else { notes.join("; ") });
    }

    /// What will change (how many selected keys on how many tracks, or whole tracks), and the
    /// first track refused in full.
    fn summary(ui: &mut egui::Ui, made: &ToolResult<Self>) {
        match selected_keys(made) {
            Some((keys, tracks)) => ui.label(format!("Scales {keys} selected key{} on {tracks} track{}.", plural(keys), plural(tracks))),
            None => ui.label(format!("Scales {} whole track{}.", made.tracks.len(), plural(made.tracks.len()))),
        };
        if let Some(e) = made.tracks.iter().find_map(|t| t.result.as_ref().err()) {
            ui.colored_label(ui.visuals().error_fg_color, format!("Cannot apply: {e}"));
        }
    }

    /// Some track scaled, none refused.
    fn can_apply(made: &ToolResult<Self>) -> bool {
        !made.tracks.is_empty() && made.tracks.iter().all(|t| t.result.is_ok())
    }

    /// The selection follows the keys: unchanged where only selected keys were scaled (a
    /// mirrored run is reversed in place), counted from the other end on a track mirrored
    /// whole. The status says the measured difference and any notes.
    fn apply(doc: &mut DocState, made: &ToolResult<Self>) -> Status {
        let (scale, pivot) = made.asked;
        if made.tracks.is_empty() {
            return Status::message("Scale time: select keys on a track, or click one");
        }
        if let Some(e) = made.tracks.iter().find_map(|t| t.result.as_ref().err()) {
            return Status::error(format!("Scale time: nothing changed; {e}"));
        }
        let (mut before, mut worst, mut notes) = (Vec::new(), Largest::default(), Vec::new());
        for (t, r) in made.reports() {
            worst.add(r.retimed.max_difference, Measured::of(r.retimed.track.kind, Measured::Degrees));
            notes.extend(r.retimed.notes.iter().map(|n| format!("\"{}\": {n}", t.name)));
            if r.scaled.is_none_or(|(selected, keys)| selected == keys) {
                before.push((t.index, doc.project().tracks[t.index].keys.len()));
            }
        }
        let selected: Vec<KeyRef> = doc.selection.iter().copied().collect();
        let (applied, refused) = made.replace_in(doc);
        follow_scaled(doc, &selected, &before, scale < 0.0);
        let n = applied.len();
        let what = match selected_keys(made) {
            Some((k, _)) => format!("Scaled {k} selected key{} on {n} track{}", plural(k), plural(n)),
            None => format!("Scaled {n} track{}", plural(n)),
        };
        let mut text = format!("{what} in time by {scale} about {pivot:.3} s: largest difference measured {}", worst.text(2));
        if !notes.is_empty() {
            text = format!("{text}; {}", notes.join("; "));
        }
        match refused {
            Some(e) if n == 0 => Status::error(format!("Scale time: {e}")),
            Some(e) => Status::error(format!("{text}; {e}, left as it was")),
            None => Status::message(text),
        }
    }
}

/// How many selected keys are scaled on how many tracks (`None`: whole tracks).
fn selected_keys(made: &ToolResult<ScaleTime>) -> Option<(usize, usize)> {
    let counts: Vec<usize> = made.reports().filter_map(|(_, r)| Some(r.scaled?.0)).collect();
    (!counts.is_empty()).then(|| (counts.iter().sum(), counts.len()))
}

/// The selection after Scale time: the same keys, counted from the other end where time was
/// mirrored; a track whose key count changed (a mirrored Step track) leaves it.
fn follow_scaled(doc: &mut DocState, selected: &[KeyRef], before: &[(usize, usize)], mirrored: bool) {
    let tracks = &doc.project().tracks;
    let moved = |k: &KeyRef| before.iter().find(|b| b.0 == k.track).map(|&(_, n)| (n, tracks[k.track].keys.len()));
    let keys: Vec<KeyRef> = selected
        .iter()
        .filter_map(|k| match moved(k) {
            None => Some(*k),
            Some((n, m)) if n == m => Some(KeyRef { track: k.track, key: if mirrored { n - 1 - k.key } else { k.key } }),
            Some(_) => None,
        })
        .collect();
    if keys != selected {
        doc.selection.clear();
        doc.selection.extend(keys);
    }
}
