//! Key > Insert time… and Remove time… as tools (one type, two rows: [`InsertTime`],
//! [`RemoveTime`]): the amount in seconds at the playhead, on the tracks of the selected keys
//! or, with none selected, every track (`document/time_edit.rs`: what each does to a track's
//! keys). Previewed over a ghost of the original; the window says how many keys move and are
//! deleted; Apply puts the tracks in place as one undo step, the selection following its keys.
//! A track that would lose every key is refused, a locked one left as it was.

use eframe::egui;

use crate::app::document::targets::{plural, Targets};
use crate::app::document::time_edit::{TimeEdit, TimeEditSpan};
use crate::app::document::DocState;
use crate::app::key_change::KeyRef;
use crate::app::message::Status;
use crate::app::tool::{Tool, ToolInfo, ToolMenu, ToolResult, ToolText, ToolView};
use crate::Track;

/// The amount of time, in seconds.
pub struct Settings {
    amount: f64,
}

impl Default for Settings {
    fn default() -> Self {
        Self { amount: 0.5 }
    }
}

/// What a time edit is made for: the amount, the playhead, and which tracks ("every track"
/// with no key selected).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Asked {
    pub amount: f64,
    pub at: f64,
    pub which: &'static str,
}

/// One track's keys with time inserted or removed (`None`: no key after the playhead).
#[derive(Debug)]
pub struct Edited {
    pub span: TimeEditSpan,
    pub track: Option<Track>,
}

/// Insert time (`REMOVE` false) or Remove time (true).
pub struct EditTime<const REMOVE: bool>;
pub type InsertTime = EditTime<false>;
pub type RemoveTime = EditTime<true>;

const INSERT: ToolInfo = ToolInfo {
    name: "Insert time",
    text: "Insert time…",
    tooltip: "Every key after the playhead moves later by an amount, on the selected keys' tracks (every track when no key is selected); one undo step",
    menus: &[ToolMenu::Key],
    shortcut: None,
};
const REMOVE: ToolInfo = ToolInfo {
    name: "Remove time",
    text: "Remove time…",
    tooltip: "The keys in the span just after the playhead are deleted and every later key moves earlier by its length, on the selected keys' tracks (every track when no key is selected); one undo step",
    menus: &[ToolMenu::Key],
    shortcut: None,
};

impl<const R: bool> EditTime<R> {
    const EDIT: TimeEdit = if R { TimeEdit::Remove } else { TimeEdit::Insert };
}

impl<const R: bool> Tool for EditTime<R> {
    type Settings = Settings;
    type Asked = Asked;
    type Report = Edited;

    const INFO: &'static ToolInfo = if R { &REMOVE } else { &INSERT };
    const TEXT: ToolText = ToolText {
        working: "measuring…",
        again: "measuring again…",
        nothing: "No track to change.",
        apply: "Apply",
        apply_tips: ("One undo step; the originals stay as a ghost", "The amount must be more than 0 s, or no key is after the playhead"),
        columns: &["keys"],
    };
    /// At once for a small take (the window shows the counts as the amount is typed); a take
    /// of more keys is worked on a worker, so playing with the window open stays smooth.
    const INLINE_KEYS: usize = 5_000;

    fn controls(ui: &mut egui::Ui, s: &mut Settings, view: &ToolView<'_>) {
        ui.label(match Self::EDIT {
            TimeEdit::Insert => "Every key after the playhead moves later by the amount (a key at the playhead stays).",
            TimeEdit::Remove => "The keys in the span after the playhead are deleted; every later key moves earlier by the amount.",
        });
        ui.horizontal(|ui| {
            ui.label("amount");
            ui.add(egui::DragValue::new(&mut s.amount).range(0.0..=1e6).speed(0.01).suffix(" s")).accessible_name("time edit amount");
            ui.label(format!("at the playhead, {:.3} s", view.playhead));
        });
    }

    fn asked(s: &Settings, view: &ToolView<'_>) -> Result<Asked, String> {
        if !(s.amount.is_finite() && s.amount > 0.0) {
            return Err("the amount must be more than 0 s".to_owned());
        }
        let which = if view.doc.selection.is_empty() { "every track" } else { "the selected keys' tracks" };
        Ok(Asked { amount: s.amount, at: view.playhead, which })
    }

    /// The tracks of the selected keys, or every track.
    fn targets(doc: &DocState) -> Targets {
        let selected = doc.selection.tracks();
        let tracks = if selected.is_empty() { (0..doc.project().tracks.len()).collect() } else { selected };
        tracks.into_iter().map(|t| (t, None)).collect()
    }

    fn run_track(track: &Track, _keys: Option<&[usize]>, a: &Asked) -> Result<Edited, String> {
        let span = TimeEditSpan::of(&track.keys, Self::EDIT, a.at, a.amount);
        if span.deleted == track.keys.len() {
            return Err(format!("\"{}\" would lose every key", track.name));
        }
        let shift = if R { -a.amount } else { a.amount };
        let keys = (span.deleted + span.moved > 0).then(|| span.apply(&track.keys, shift));
        Ok(Edited { span, track: keys.map(|keys| track.with_other_keys(keys)) })
    }

    fn new_track(e: &Edited) -> Option<&Track> {
        e.track.as_ref()
    }

    fn row(ui: &mut egui::Ui, e: &Edited) {
        ui.label(match Self::EDIT {
            TimeEdit::Insert => format!("{} move later", e.span.moved),
            TimeEdit::Remove => format!("{} deleted, {} move earlier", e.span.deleted, e.span.moved),
        });
    }

    fn summary(ui: &mut egui::Ui, made: &ToolResult<Self>) {
        let (deleted, moved) = made.reports().fold((0, 0), |(d, m), (_, e)| (d + e.span.deleted, m + e.span.moved));
        let Asked { amount, at, which } = made.asked;
        let what = match Self::EDIT {
            TimeEdit::Insert => format!("{moved} keys move later"),
            TimeEdit::Remove => format!("{deleted} keys in ({at:.3} s, {:.3} s] deleted, {moved} later keys move earlier", at + amount),
        };
        ui.label(format!("{what}, on {which} ({})", made.tracks.len()));
    }

    /// The selection follows its keys (a deleted key leaves it).
    fn apply(doc: &mut DocState, made: &ToolResult<Self>) -> Status {
        let Asked { amount, at, which } = made.asked;
        let label = Self::INFO.name;
        let selected: Vec<KeyRef> = doc.selection.iter().copied().collect();
        let (applied, refused) = made.replace_in(doc);
        let (mut deleted, mut moved, mut followed) = (0, 0, Vec::new());
        for (t, e) in made.reports().filter(|(t, _)| applied.contains(&t.index)) {
            (deleted, moved) = (deleted + e.span.deleted, moved + e.span.moved);
            followed.extend(selected.iter().filter(|k| k.track == t.index).filter_map(|k| Some(KeyRef { track: k.track, key: e.span.follow(k.key)? })));
        }
        doc.deselect_tracks(&applied);
        doc.selection.extend(followed);
        let left: Vec<String> = made.tracks.iter().filter_map(|t| t.result.as_ref().err().cloned()).chain(refused).collect();
        let left = if left.is_empty() { String::new() } else { format!("; left as they were: {}", left.join(", ")) };
        let n = applied.len();
        if n == 0 {
            return Status::message(format!("{label}: no key after {at:.3} s on {which}{left}"));
        }
        let body = made.body.text().map(|t| format!(". {t}")).unwrap_or_default();
        let what = match Self::EDIT {
            TimeEdit::Insert => format!("Inserted {amount} s at {at:.3} s: {moved} key{} moved later", plural(moved)),
            TimeEdit::Remove => format!("Removed {amount} s after {at:.3} s: {deleted} key{} deleted, {moved} moved earlier", plural(deleted)),
        };
        Status::message(format!("{what} on {n} track{} ({which}){left}{body}", plural(n)))
    }
}
