//! The tool abstraction (issue 41): a preview-and-apply tool (Smooth, Scale time, Simplify,
//! Convert to Bézier, Convert rotation, Insert and Remove time) is one type implementing
//! [`Tool`] — its row ([`ToolInfo`]: name, menus, shortcut, tooltip), its settings and
//! controls, what it asks ([`Tool::Asked`]), the tracks it acts on, the work it does on a
//! worker (per track, or over the project), the report of each track, the track it replaces,
//! and what its Apply says — in one file under `tools/`, listed by one row in `tools::TOOLS`.
//!
//! Everything else is written once: the window frame (`tool_window.rs`: opening and closing,
//! the preview job and its currency check, the spinner, the track table, Apply/Cancel,
//! Escape), the one result shape ([`ToolResult`]: `made_for` and each track's
//! [`TrackOutcome`]), the command pair that carries a preview and an Apply
//! (`AppCommand::ToolPreview`, `AppCommand::ToolApply`, with the result type-erased as
//! [`ToolMade`]), the install of the replaced tracks as one undo step
//! (`DocState::replace_tracks`), and the graph's and the pose view's drawing of a preview
//! ([`ToolMade::new_curves`], [`Drawn`]).

use std::any::Any;
use std::collections::BTreeMap;
use std::sync::Arc;

use eframe::egui;

use super::basis::Basis;
use super::body::BodyChange;
use super::compiled_track::CompiledTrack;
use super::document::targets::{jumps_crossed, Targets};
use super::document::DocState;
use super::jobs::Worker;
use super::message::Status;
use crate::{Project, Track, TrackCurve};

pub use super::tool_info::{ToolId, ToolInfo, ToolMenu};

/// The window's words: the spinner's while the first preview is made and while a newer one
/// is, what it says with nothing to act on, the Apply button's label and its two tooltips
/// (enabled, and why it is off), and the report table's columns after "track".
pub struct ToolText {
    pub working: &'static str,
    pub again: &'static str,
    pub nothing: &'static str,
    pub apply: &'static str,
    pub apply_tips: (&'static str, &'static str),
    pub columns: &'static [&'static str],
}

/// How the graph draws a tool's preview.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Drawn {
    /// Not drawn (Convert to Bézier: the curves are the same).
    Nothing,
    /// Each new curve amber over a ghost of the original (Smooth, Scale time).
    OverGhost,
    /// Each new curve amber with its keys, between dashed lines ±`band` (file units) around
    /// the original (Simplify; no band when bounded on the body).
    Band(Option<f64>),
}

/// What a tool's controls and its question see: the document and the playhead.
pub struct ToolView<'a> {
    pub doc: &'a DocState,
    pub playhead: f64,
}

/// A tool's work on the targets: each track's report or why not, and a note on the whole.
pub struct Worked<R> {
    pub tracks: Vec<(usize, Result<R, String>)>,
    pub note: Option<String>,
}

/// One track's outcome: its report and, if it is replaced, the new track compiled.
#[derive(Debug)]
pub struct Made<R> {
    pub report: R,
    pub compiled: Option<CompiledTrack>,
}

/// One target track (index, name) and what the tool made of it, or why not.
#[derive(Debug)]
pub struct TrackOutcome<R> {
    pub index: usize,
    pub name: String,
    pub result: Result<Made<R>, String>,
}

/// The one result shape: what a tool made for `asked` and `made_for`, per track.
pub struct ToolResult<T: Tool> {
    pub asked: T::Asked,
    pub made_for: Basis,
    pub tracks: Vec<TrackOutcome<T::Report>>,
    /// How far the new tracks move the body (if there is a skeleton).
    pub body: BodyChange,
    /// What the work says beyond its tracks.
    pub note: Option<String>,
    /// The jumps inside the keys it acts on ([`Tool::WARNS_JUMPS`]).
    pub crossed: Vec<crate::problems::Jump>,
}

impl<T: Tool> ToolResult<T> {
    /// The tracks made (those with a report), with it.
    pub fn reports(&self) -> impl Iterator<Item = (&TrackOutcome<T::Report>, &T::Report)> {
        self.tracks.iter().filter_map(|t| Some((t, &t.result.as_ref().ok()?.report)))
    }

    /// The replacing tracks: index, new track, its compiled curve.
    pub fn replacements(&self) -> impl Iterator<Item = (usize, &Track, &CompiledTrack)> {
        self.tracks.iter().filter_map(|t| {
            let made = t.result.as_ref().ok()?;
            Some((t.index, T::new_track(&made.report)?, made.compiled.as_ref()?))
        })
    }

    /// Puts the replacing tracks in place as one undo step (`DocState::replace_tracks`):
    /// the tracks applied, and the first refusal (a locked track).
    pub fn replace_in(&self, doc: &mut DocState) -> (Vec<usize>, Option<String>) {
        let tracks = self.replacements().map(|(i, t, c)| (i, t.clone(), c.clone())).collect();
        doc.replace_tracks(T::INFO.name, tracks)
    }

    /// The first track's error, named.
    #[must_use]
    pub fn first_error(&self) -> Option<String> {
        self.tracks.iter().find_map(|t| t.result.as_ref().err().map(|e| format!("\"{}\": {e}", t.name)))
    }
}

/// A preview-and-apply tool (module docs). Associated items with defaults are what most tools
/// share; a tool overrides what it does differently.
pub trait Tool: Sized + Send + Sync + 'static {
    /// What the controls edit (the window keeps it between openings).
    type Settings: Default;
    /// What a result is made for besides the basis (the filter, the factor and pivot…).
    type Asked: Clone + PartialEq + Send + Sync + 'static;
    /// Each track's report.
    type Report: Send + Sync + 'static;

    const INFO: &'static ToolInfo;
    const TEXT: ToolText;
    /// Previewed while open (else the work starts on Apply, and its result is applied).
    const PREVIEWS: bool = true;
    /// Applied, the originals stay drawn as the ghost.
    const GHOST: bool = true;
    /// The report warns about jumps inside the keys it acts on.
    const WARNS_JUMPS: bool = false;
    /// Targets of at most this many keys are worked on the UI thread at once.
    const INLINE_KEYS: usize = 0;

    /// The controls above the report (and what the tool is).
    fn controls(ui: &mut egui::Ui, settings: &mut Self::Settings, view: &ToolView<'_>);
    /// What `settings` ask, or why they are not valid.
    ///
    /// # Errors
    /// The message the window shows in red.
    fn asked(settings: &Self::Settings, view: &ToolView<'_>) -> Result<Self::Asked, String>;
    /// The tracks it acts on (with their selected keys, or whole).
    fn targets(doc: &DocState) -> Targets {
        doc.key_targets()
    }
    /// The work on one track (only `keys` where given).
    ///
    /// # Errors
    /// Why the track cannot be worked on.
    fn run_track(track: &Track, keys: Option<&[usize]>, asked: &Self::Asked) -> Result<Self::Report, String>;
    /// The work on every target: per track on every core, unless the tool works on the
    /// project as a whole. `None` once cancelled.
    fn run(project: &Project, targets: &Targets, asked: &Self::Asked, w: &Worker) -> Option<Worked<Self::Report>> {
        per_track(project, targets, w, |t, keys| Self::run_track(t, keys, asked))
    }
    /// The track a report replaces its track with (`None`: the track stays).
    fn new_track(report: &Self::Report) -> Option<&Track>;
    /// A report's cells after the track's name ([`ToolText::columns`]).
    fn row(ui: &mut egui::Ui, report: &Self::Report);
    /// Lines above the table (how many keys change…).
    fn summary(_ui: &mut egui::Ui, _made: &ToolResult<Self>) {}
    /// A target's row before the work (tools that are not previewed).
    fn planned(_track: &Track, _asked: &Self::Asked) -> String {
        String::new()
    }
    /// Whether Apply can put `made` in place.
    fn can_apply(made: &ToolResult<Self>) -> bool {
        made.replacements().next().is_some()
    }
    /// How the graph draws the preview.
    fn drawn(_made: &ToolResult<Self>) -> Drawn {
        Drawn::OverGhost
    }
    /// Puts `made` in place (through [`ToolResult::replace_in`]: one undo step) and says what
    /// it did.
    fn apply(doc: &mut DocState, made: &ToolResult<Self>) -> Status;
}

/// `work` on each target track on every core; progress counts tracks. `None` once cancelled.
pub fn per_track<R: Send>(
    project: &Project,
    targets: &Targets,
    w: &Worker,
    work: impl Fn(&Track, Option<&[usize]>) -> Result<R, String> + Sync,
) -> Option<Worked<R>> {
    use rayon::prelude::*;
    w.progress().set("tracks", 0, targets.len());
    let tracks = targets
        .par_iter()
        .filter_map(|(i, keys)| project.tracks.get(*i).map(|t| (*i, t, keys.as_deref())))
        .map(|(i, t, keys)| {
            let result = if w.cancelled() { Err("cancelled".to_owned()) } else { work(t, keys) };
            w.progress().step();
            w.repaint();
            (i, result)
        })
        .collect();
    (!w.cancelled()).then_some(Worked { tracks, note: None })
}

/// `T`'s work for `asked` on `targets` of `project`, each new track compiled, the body
/// measured: what the window previews and Apply puts in place. `None` once cancelled.
pub fn make<T: Tool>(project: &Project, targets: &Targets, asked: T::Asked, made_for: Basis, w: &Worker) -> Option<ToolResult<T>> {
    use rayon::prelude::*;
    let Worked { tracks, note } = T::run(project, targets, &asked, w)?;
    let tracks: Vec<TrackOutcome<T::Report>> = tracks
        .into_par_iter()
        .map(|(index, result)| {
            let result = result.and_then(|report| {
                let compiled = T::new_track(&report).map(CompiledTrack::of);
                if let Some(Err(e)) = compiled.as_ref().map(|c| &c.curve) {
                    return Err(e.to_string());
                }
                Ok(Made { report, compiled })
            });
            TrackOutcome { index, name: project.tracks.get(index).map(|t| t.name.clone()).unwrap_or_default(), result }
        })
        .collect();
    let body = BodyChange::measure(project, tracks.iter().filter_map(|t| Some((t.index, &t.result.as_ref().ok()?.compiled.as_ref()?.curve))));
    let crossed = if T::WARNS_JUMPS { jumps_crossed(project, targets) } else { Vec::new() };
    (!w.cancelled()).then_some(ToolResult { asked, made_for, tracks, body, note, crossed })
}

/// `T`'s handle.
#[must_use]
pub fn id<T: Tool>() -> ToolId {
    ToolId(T::INFO)
}

/// `T`'s window flag.
#[must_use]
pub fn window<T: Tool>() -> super::windows::Window {
    super::windows::Window::Tool(ToolId(T::INFO))
}

/// `T`'s result for `asked` on the document as it is, made at once (tests).
#[cfg(test)]
pub fn made_now<T: Tool>(doc: &DocState, asked: T::Asked) -> ToolMade {
    let made = make::<T>(doc.project(), &T::targets(doc), asked, doc.basis(), &Worker::unattached()).expect("not cancelled");
    ToolMade(Arc::new(made))
}

/// A tool's result with its tool forgotten: what commands carry, the UI state keeps, the
/// dispatcher applies and the graph draws.
pub trait AnyToolResult: Send + Sync {
    fn tool(&self) -> ToolId;
    fn made_for(&self) -> Basis;
    /// The new tracks and their curves (index, track, curve).
    fn new_tracks(&self) -> Vec<(usize, &Track, &TrackCurve)>;
    fn drawn(&self) -> Drawn;
    /// Whether Apply leaves the originals as the ghost.
    fn ghost(&self) -> bool;
    fn apply(&self, doc: &mut DocState) -> Status;
    fn as_any(&self) -> &dyn Any;
}

impl<T: Tool> AnyToolResult for ToolResult<T> {
    fn tool(&self) -> ToolId {
        ToolId(T::INFO)
    }

    fn made_for(&self) -> Basis {
        self.made_for
    }

    fn new_tracks(&self) -> Vec<(usize, &Track, &TrackCurve)> {
        self.replacements().filter_map(|(i, t, c)| Some((i, t, c.curve.as_ref().ok()?))).collect()
    }

    fn drawn(&self) -> Drawn {
        T::drawn(self)
    }

    fn ghost(&self) -> bool {
        T::GHOST
    }

    fn apply(&self, doc: &mut DocState) -> Status {
        T::apply(doc, self)
    }

    fn as_any(&self) -> &dyn Any {
        self
    }
}

/// A tool's result, shared: compared by identity (a command is plain data that may be cloned).
#[derive(Clone)]
pub struct ToolMade(pub Arc<dyn AnyToolResult>);

impl ToolMade {
    /// The new curves (index, curve): what the graph and the pose view draw.
    #[must_use]
    pub fn new_curves(&self) -> Vec<(usize, &TrackCurve)> {
        self.0.new_tracks().into_iter().map(|(i, _, c)| (i, c)).collect()
    }

    /// The result as `T`'s, if it is one.
    #[must_use]
    pub fn of<T: Tool>(&self) -> Option<&ToolResult<T>> {
        self.0.as_any().downcast_ref()
    }
}

impl<T: Tool> From<Arc<ToolResult<T>>> for ToolMade {
    fn from(made: Arc<ToolResult<T>>) -> Self {
        Self(made)
    }
}

impl PartialEq for ToolMade {
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}

impl std::fmt::Debug for ToolMade {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "ToolMade({})", self.0.tool().name())
    }
}

/// The previews of the open tools, by tool (drawn in the graph and the pose view).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Previews(BTreeMap<ToolId, ToolMade>);

impl Previews {
    /// `tool`'s preview set (`None`: taken away); whether that changed anything.
    pub fn set(&mut self, tool: ToolId, made: Option<ToolMade>) -> bool {
        match made {
            Some(m) => self.0.insert(tool, m.clone()).is_none_or(|old| old != m),
            None => self.0.remove(&tool).is_some(),
        }
    }

    #[must_use]
    pub fn has(&self, tool: ToolId) -> bool {
        self.0.contains_key(&tool)
    }

    #[must_use]
    pub fn get(&self, tool: ToolId) -> Option<&ToolMade> {
        self.0.get(&tool)
    }

    pub fn iter(&self) -> impl Iterator<Item = &ToolMade> {
        self.0.values()
    }

    /// `T`'s preview, if its window shows one.
    #[must_use]
    pub fn of<T: Tool>(&self) -> Option<&ToolResult<T>> {
        self.0.get(&ToolId(T::INFO)).and_then(ToolMade::of)
    }
}
