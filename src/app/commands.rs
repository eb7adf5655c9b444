//! The one command queue: every user command with its menu text, tooltip and shortcut
//! ([`Command`]), and the [`AppCommand`]s panels push during a frame — edits, gesture steps,
//! selection, view and transport changes — which the app runs once, after every panel drew.

use std::collections::BTreeSet;
use std::path::PathBuf;
use std::sync::Arc;

use eframe::egui::{Key, KeyboardShortcut, Modifiers};

use super::compiled_track::CompiledTake;
use super::document::blend::Blended;
use super::files::{ImportMode, ImportResult};
use super::finished::{Finished, Handoff};
use super::key_change::{Gesture, HandleSides, KeyRef};
use super::message::Status;
use super::playback::TransportCommand;
use super::settings::ViewSettings;
use super::tool::{ToolId, ToolMade};
use super::windows::Window;
use crate::blend::BlendTool;
use crate::model::{Easing, KeyInterpolation};
use crate::runtime::Runtime;
use crate::Edit;

/// What a panel asks for. Pushed during the frame, run in order at its end.
#[derive(Clone, Debug, PartialEq)]
pub enum AppCommand {
    /// A menu entry or shortcut.
    Ui(Command),
    /// The one route of a drag or a widget's change to the document: a step of a gesture
    /// (`gesture::step` makes it from the widget's response; a drag is one undo step). Its
    /// change is made here, or on a worker for a big selection (`planner.rs`).
    Gesture(Gesture),
    /// An edit of its own (a track added, removed, renamed): one undo step, closing an open
    /// gesture first.
    Edit(EditCommand),
    /// The handles of one or both sides of every selected Bézier key given a type (the
    /// inspector's combo boxes; `V` is [`Command::SetHandleType`]): made here, or on a worker
    /// for big tracks.
    SetHandleSides(HandleSides),
    /// Insert a key on a track's curve at a time.
    InsertKey {
        track: usize,
        t: f64,
    },
    /// What a tool's window previews in the graph and the pose view (`None` when it closes).
    ToolPreview(ToolId, Option<ToolMade>),
    /// A tool's Apply: the tracks its window showed replaced (made and compiled on its
    /// worker), put in place as one undo step if what they were made for still holds; the
    /// originals become the ghost if the tool leaves one.
    ToolApply(ToolMade),
    /// View > Preview runtime's worker played the export: put in place if what it was made
    /// for holds (`RuntimePreview::install`).
    RuntimePlayed(Handoff<super::runtime_preview::RuntimeMade>),
    /// The Export window's settings changed: what View > Preview runtime plays from now.
    SetExportSettings(Box<super::runtime_preview::ExportSettings>),
    /// The open blend slider (`UiState::blend`): a new factor, OK or Cancel.
    Blend(BlendCommand),
    Select(BTreeSet<KeyRef>),
    /// Add a key to the selection, or take it out if it is in.
    ToggleSelected(KeyRef),
    AddToSelection(Vec<KeyRef>),
    SetActiveTrack(usize),
    /// What View > Problems found (`None` when it closes): the graph marks the jumps.
    SetProblems(Option<Arc<super::body::FoundProblems>>),
    /// Joints picked in the pose view: their tracks become the shown ones, the primary one
    /// active.
    SelectJoints(super::body::JointSelection),
    SetView(Box<ViewSettings>),
    Transport(TransportCommand),
    Status(Status),
    /// Open a file (asking first about unsaved changes).
    Open(PathBuf),
    /// Replace the document's tracks with recovered ones, compiled by the recovery worker (one
    /// undo step); `origin` is the file they were edited from, which Save then writes.
    Restore {
        take: Box<CompiledTake>,
        origin: Option<PathBuf>,
    },
    /// Show the Import window on this file (a dropped `.glb`, `.gltf`, `.json`, `.csv`).
    ImportPath(PathBuf),
    /// An import finished: open it as a new project or add its tracks.
    Imported {
        imported: Box<ImportResult>,
        mode: ImportMode,
    },
    /// Save to a typed path (the Save as window).
    SaveTo(PathBuf),
    /// The unsaved-changes question was answered.
    Decide(Decision),
    /// The file changed on disk: overwrite it (`Some`) or leave it (`None`).
    Overwrite(Option<PathBuf>),
    CloseOpenPath,
    CloseSavePath,
    /// Stop opening a big file (`file_job.rs`); the open document stays.
    CancelFileJob,
    /// A window was closed (its close button, Cancel, or done).
    CloseWindow(Window),
    /// A job's result (a change of keys, a big open or save), applied if it is current.
    Finished(Finished),
}

impl AppCommand {
    /// What a box selection asks (the graph's and the dope sheet's): the keys `found` added to
    /// the selection, or in place of it unless `add`; the first one's track active; how many
    /// in the status bar.
    pub fn box_selected(found: Vec<KeyRef>, add: bool) -> Vec<AppCommand> {
        let mut out = Vec::with_capacity(4);
        if !add {
            out.push(AppCommand::Select(BTreeSet::new()));
        }
        if let Some(first) = found.first() {
            out.push(AppCommand::SetActiveTrack(first.track));
        }
        out.push(AppCommand::Status(Status::message(format!("Box selected {} keys", found.len()))));
        out.push(AppCommand::AddToSelection(found));
        out
    }
}

/// What the blend slider asks.
#[derive(Clone, Debug, PartialEq)]
pub enum BlendCommand {
    /// The original keys blended at a factor, made on the slider's worker: put in place (part
    /// of the slider's one undo step) if the basis it was made for holds.
    Blended(Handoff<Blended>),
    /// OK (Enter): keep the keys, close the undo step, leave the originals as the ghost.
    Keep,
    /// Cancel (Escape): put the original keys back.
    Cancel,
    /// The document changed under the slider (another edit, an undo): close it, changing nothing.
    Close,
}

/// The answer to "Unsaved changes".
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Decision {
    Save,
    Discard,
    Cancel,
}

/// An undoable edit, with what to do once it is applied.
#[derive(Clone, Debug, PartialEq)]
pub struct EditCommand {
    pub label: String,
    pub edit: Edit,
    /// The edited track's selected keys afterwards (its keys may have been re-sorted).
    pub selected: Option<Vec<KeyRef>>,
    /// Shown in the status line if the edit is applied.
    pub message: Option<String>,
}

impl EditCommand {
    pub fn new(label: impl Into<String>, edit: Edit) -> Self {
        Self { label: label.into(), edit, selected: None, message: None }
    }

    #[must_use]
    pub fn with_message(mut self, message: impl Into<String>) -> Self {
        self.message = Some(message.into());
        self
    }
}

impl From<EditCommand> for AppCommand {
    fn from(e: EditCommand) -> Self {
        Self::Edit(e)
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Command {
    New,
    Open,
    OpenPath,
    Save,
    SaveAs,
    Import,
    Export,
    Quit,
    Undo,
    Redo,
    SelectAll,
    DeselectAll,
    DeleteKeys,
    Copy,
    Paste,
    InsertKey,
    /// A tool's window (Convert to Bézier…, Simplify…, Smooth…, Scale time…, Convert
    /// rotation…: `tools::TOOLS`), listed in the menus its row names.
    Tool(ToolId),
    /// Blender's `V` menu: the handle types, at the pointer.
    HandleTypeMenu,
    /// Blender's `T` menu: the interpolation of the segment after each selected Bézier key.
    InterpolationMenu,
    /// Blender's `Ctrl+E` menu: which end of the selected keys' easing segments eases.
    EasingMenu,
    /// Edit > Euler filter: each key's angles the equivalent nearest the key before, on the
    /// selected Euler tracks.
    EulerFilter,
    /// Edit > Fix jumps: each spike (a jump out and back within a few frames) of the selected
    /// keys' tracks (or every track) replaced by the interpolation across it; lasting steps
    /// reported, not changed (`crate::problems`).
    FixJumps,
    /// View > Problems: the take's jumps, each a row that goes there.
    ToggleProblems,
    /// Key > Blend to Neighbor, Breakdown, Blend to Ease: a slider on the selected keys.
    Blend(crate::blend::BlendTool),
    /// View > Clear ghost: stop drawing the original curves of the last tool applied.
    ClearGhost,
    SetHandleType(crate::HandleType),
    SetKeyInterpolation(KeyInterpolation),
    SetEasing(Easing),
    FrameAll,
    FrameSelected,
    ToggleNormalize,
    /// View > Stacked curves: each drawn curve in its own lane.
    ToggleStacked,
    /// View > Time in frames: the time axes count frames.
    ToggleFrameAxis,
    /// View > Dock tool windows: tools beside the graph, or floating where they were moved.
    ToggleDockTools,
    ToggleTangents,
    ToggleSpeedGraph,
    ToggleAllCurves,
    ToggleSnap,
    /// View > Frame statistics: the last frames' CPU times and what caused them.
    ToggleFrameStats,
    /// View > Preview runtime ▸: the Export window's export as this runtime plays it, as a
    /// ghost, each track's distance in the track list (`None`: off).
    PreviewRuntime(Option<Runtime>),
    PlayPause,
    StepFrame,
}

impl Command {
    pub const FILE: [Command; 8] = [Self::New, Self::Open, Self::OpenPath, Self::Save, Self::SaveAs, Self::Import, Self::Export, Self::Quit];
    /// The menus' own entries; each is followed by the tools its rows list there
    /// (`tools::in_menu`: Simplify in Edit, where the issue and Blender users look for it, and
    /// in Key).
    pub const EDIT: [Command; 9] =
        [Self::Undo, Self::Redo, Self::SelectAll, Self::DeselectAll, Self::DeleteKeys, Self::Copy, Self::Paste, Self::EulerFilter, Self::FixJumps];
    pub const KEY: [Command; 7] = [
        Self::InsertKey,
        Self::HandleTypeMenu,
        Self::InterpolationMenu,
        Self::EasingMenu,
        Self::Blend(BlendTool::ToNeighbor),
        Self::Blend(BlendTool::Breakdown),
        Self::Blend(BlendTool::ToEase),
    ];
    pub const TRACK: [Command; 0] = [];
    /// The entries of the handle-type menu, in Blender's order.
    pub const HANDLE_TYPES: [Command; 5] = [
        Self::SetHandleType(crate::HandleType::Free),
        Self::SetHandleType(crate::HandleType::Vector),
        Self::SetHandleType(crate::HandleType::Aligned),
        Self::SetHandleType(crate::HandleType::Auto),
        Self::SetHandleType(crate::HandleType::AutoClamped),
    ];
    /// The entries of the interpolation menu, in Blender's order and groups: interpolation,
    /// easing by strength, dynamic effects.
    pub const INTERPOLATIONS: [&'static [Command]; 3] = [
        &[
            Self::SetKeyInterpolation(KeyInterpolation::Constant),
            Self::SetKeyInterpolation(KeyInterpolation::Linear),
            Self::SetKeyInterpolation(KeyInterpolation::Bezier),
        ],
        &[
            Self::SetKeyInterpolation(KeyInterpolation::Sine),
            Self::SetKeyInterpolation(KeyInterpolation::Quad),
            Self::SetKeyInterpolation(KeyInterpolation::Cubic),
            Self::SetKeyInterpolation(KeyInterpolation::Quart),
            Self::SetKeyInterpolation(KeyInterpolation::Quint),
            Self::SetKeyInterpolation(KeyInterpolation::Expo),
            Self::SetKeyInterpolation(KeyInterpolation::Circ),
        ],
        &[
            Self::SetKeyInterpolation(KeyInterpolation::Back),
            Self::SetKeyInterpolation(KeyInterpolation::Bounce),
            Self::SetKeyInterpolation(KeyInterpolation::Elastic),
        ],
    ];
    /// The headings of [`Self::INTERPOLATIONS`]' groups (Blender's).
    pub const INTERPOLATION_GROUPS: [&'static str; 3] = ["Interpolation", "Easing (by strength)", "Dynamic effects"];
    /// The entries of the easing menu.
    pub const EASINGS: [Command; 4] =
        [Self::SetEasing(Easing::Auto), Self::SetEasing(Easing::In), Self::SetEasing(Easing::Out), Self::SetEasing(Easing::InOut)];
    pub const VIEW: [Command; 13] = [
        Self::FrameAll,
        Self::FrameSelected,
        Self::ToggleNormalize,
        Self::ToggleStacked,
        Self::ToggleFrameAxis,
        Self::ToggleDockTools,
        Self::ToggleTangents,
        Self::ToggleSpeedGraph,
        Self::ToggleAllCurves,
        Self::ToggleSnap,
        Self::ClearGhost,
        Self::ToggleFrameStats,
        Self::ToggleProblems,
    ];
    /// The entries of View > Preview runtime ▸.
    pub const PREVIEW_RUNTIMES: [Command; 6] = [
        Self::PreviewRuntime(None),
        Self::PreviewRuntime(Some(Runtime::Spec)),
        Self::PreviewRuntime(Some(Runtime::Three)),
        Self::PreviewRuntime(Some(Runtime::Blender)),
        Self::PreviewRuntime(Some(Runtime::Blender34)),
        Self::PreviewRuntime(Some(Runtime::Godot)),
    ];
    pub const PLAY: [Command; 2] = [Self::PlayPause, Self::StepFrame];

    pub fn shortcut(self) -> Option<KeyboardShortcut> {
        let cmd = Modifiers::COMMAND;
        let k = |m: Modifiers, key: Key| Some(KeyboardShortcut::new(m, key));
        match self {
            Self::New => k(cmd, Key::N),
            Self::Open => k(cmd, Key::O),
            Self::OpenPath => k(cmd.plus(Modifiers::SHIFT), Key::O),
            Self::Save => k(cmd, Key::S),
            Self::SaveAs => k(cmd.plus(Modifiers::SHIFT), Key::S),
            Self::Import => k(cmd, Key::I),
            // Ctrl+E is the easing menu, as in Blender's graph editor.
            Self::Export => k(cmd.plus(Modifiers::SHIFT), Key::E),
            Self::Quit => k(cmd, Key::Q),
            Self::Undo => k(cmd, Key::Z),
            Self::Redo => k(cmd.plus(Modifiers::SHIFT), Key::Z),
            Self::SelectAll => k(cmd, Key::A),
            Self::DeselectAll => k(Modifiers::ALT, Key::A),
            Self::DeleteKeys => k(Modifiers::NONE, Key::Delete),
            Self::Copy => k(cmd, Key::C),
            Self::Paste => k(cmd, Key::V),
            Self::InsertKey => k(Modifiers::NONE, Key::I),
            Self::Tool(tool) => tool.0.shortcut,
            Self::SetHandleType(_)
            | Self::SetKeyInterpolation(_)
            | Self::SetEasing(_)
            | Self::ToggleFrameStats
            | Self::PreviewRuntime(_)
            | Self::ClearGhost => None,
            Self::Blend(BlendTool::Breakdown | BlendTool::ToEase) => None,
            Self::Blend(BlendTool::ToNeighbor) => k(Modifiers::SHIFT.plus(Modifiers::ALT), Key::D),
            Self::EulerFilter => k(cmd.plus(Modifiers::SHIFT), Key::F),
            Self::FixJumps => k(cmd.plus(Modifiers::SHIFT), Key::J),
            Self::ToggleProblems => k(cmd.plus(Modifiers::SHIFT), Key::P),
            Self::HandleTypeMenu => k(Modifiers::NONE, Key::V),
            Self::InterpolationMenu => k(Modifiers::NONE, Key::T),
            Self::EasingMenu => k(cmd, Key::E),
            Self::FrameAll => k(Modifiers::NONE, Key::F),
            Self::FrameSelected => k(Modifiers::NONE, Key::Period),
            Self::ToggleNormalize => k(Modifiers::NONE, Key::N),
            Self::ToggleStacked => k(Modifiers::SHIFT, Key::N),
            Self::ToggleFrameAxis => k(cmd, Key::T),
            Self::ToggleDockTools => None,
            // T is the interpolation menu, as in Blender's graph editor.
            Self::ToggleTangents => k(Modifiers::SHIFT, Key::T),
            Self::ToggleSpeedGraph => k(Modifiers::NONE, Key::G),
            Self::ToggleAllCurves => k(Modifiers::SHIFT, Key::H),
            Self::ToggleSnap => k(Modifiers::SHIFT, Key::Tab),
            Self::PlayPause => k(Modifiers::NONE, Key::Space),
            Self::StepFrame => k(Modifiers::NONE, Key::ArrowRight),
        }
    }

    /// More keys that do the same (Blender and other editors' habits).
    pub fn alternative_shortcuts(self) -> Vec<KeyboardShortcut> {
        let plain = |key| KeyboardShortcut::new(Modifiers::NONE, key);
        match self {
            Self::Redo => vec![KeyboardShortcut::new(Modifiers::COMMAND, Key::Y)],
            Self::FrameAll => vec![plain(Key::Home)],
            Self::DeleteKeys => vec![plain(Key::X), plain(Key::Backspace)],
            Self::New
            | Self::Open
            | Self::OpenPath
            | Self::Save
            | Self::SaveAs
            | Self::Import
            | Self::Export
            | Self::Quit
            | Self::Undo
            | Self::SelectAll
            | Self::DeselectAll
            | Self::Copy
            | Self::Paste
            | Self::InsertKey
            | Self::Tool(_)
            | Self::HandleTypeMenu
            | Self::InterpolationMenu
            | Self::EasingMenu
            | Self::EulerFilter
            | Self::FixJumps
            | Self::ToggleProblems
            | Self::Blend(_)
            | Self::ClearGhost
            | Self::SetHandleType(_)
            | Self::SetKeyInterpolation(_)
            | Self::SetEasing(_)
            | Self::FrameSelected
            | Self::ToggleNormalize
            | Self::ToggleStacked
            | Self::ToggleFrameAxis
            | Self::ToggleDockTools
            | Self::ToggleTangents
            | Self::ToggleSpeedGraph
            | Self::ToggleAllCurves
            | Self::ToggleSnap
            | Self::ToggleFrameStats
            | Self::PreviewRuntime(_)
            | Self::PlayPause
            | Self::StepFrame => Vec::new(),
        }
    }

    /// Whether the shortcut is a bare key, which must not fire while typing in a field.
    pub fn is_plain_key(self) -> bool {
        self.shortcut().is_some_and(|s| s.modifiers.is_none() || s.modifiers == Modifiers::SHIFT || s.modifiers == Modifiers::ALT)
    }
}
