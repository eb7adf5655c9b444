//! Every command's tooltip ([`Command::tooltip`]); the names and tooltips of the Key menu's
//! parametrised entries (interpolation modes and handle types), as Blender's graph editor
//! names them, and of View > Preview runtime ▸; and the view setting or window a View toggle
//! flips ([`Command::toggle`]: the View menu shows it checked, the dispatcher flips it).

use super::commands::Command;
use super::settings::ViewSettings;
use super::windows::Window;
use crate::blend::BlendTool;
use crate::model::{Easing, KeyInterpolation};
use crate::runtime::Runtime;

/// What a View toggle flips: a view setting, or whether a window is open.
#[derive(Clone, Copy)]
pub enum Toggle {
    View(fn(&mut ViewSettings) -> &mut bool),
    Window(Window),
}

/// The interpolation menu's name of `mode` (Blender's).
pub fn interpolation_text(mode: KeyInterpolation) -> &'static str {
    match mode {
        KeyInterpolation::Bezier => "Bézier",
        KeyInterpolation::Constant => "Constant",
        KeyInterpolation::Linear => "Linear",
        KeyInterpolation::Back => "Back",
        KeyInterpolation::Bounce => "Bounce",
        KeyInterpolation::Circ => "Circular",
        KeyInterpolation::Cubic => "Cubic",
        KeyInterpolation::Elastic => "Elastic",
        KeyInterpolation::Expo => "Exponential",
        KeyInterpolation::Quad => "Quadratic",
        KeyInterpolation::Quart => "Quartic",
        KeyInterpolation::Quint => "Quintic",
        KeyInterpolation::Sine => "Sinusoidal",
    }
}

pub fn interpolation_tooltip(mode: KeyInterpolation) -> &'static str {
    match mode {
        KeyInterpolation::Bezier => "Bézier: the cubic through the keys' handles (the default)",
        KeyInterpolation::Constant => "Constant: hold this key's value until the next key, then jump",
        KeyInterpolation::Linear => "Linear: a straight line to the next key",
        KeyInterpolation::Back => "Back: overshoot then settle (the overshoot is the key's back)",
        KeyInterpolation::Bounce => "Bounce: bounce into the next key",
        KeyInterpolation::Circ => "Circular: a quarter circle",
        KeyInterpolation::Cubic => "Cubic: t³",
        KeyInterpolation::Elastic => "Elastic: a decaying oscillation (the key's amplitude and period)",
        KeyInterpolation::Expo => "Exponential: 2^(10(t−1))",
        KeyInterpolation::Quad => "Quadratic: t²",
        KeyInterpolation::Quart => "Quartic: t⁴",
        KeyInterpolation::Quint => "Quintic: t⁵",
        KeyInterpolation::Sine => "Sinusoidal: a quarter sine",
    }
}

pub fn handle_type_tooltip(t: crate::HandleType) -> &'static str {
    match t {
        crate::HandleType::Free => "Free: each handle moves on its own",
        crate::HandleType::Vector => "Vector: each handle points a third of the way to the neighbouring key (sharp corners, straight runs)",
        crate::HandleType::Aligned => "Aligned: the two handles stay on one line through the key (smooth), lengths free",
        crate::HandleType::Auto => "Automatic: smooth handles computed from the neighbours (may overshoot)",
        crate::HandleType::AutoClamped => "Auto Clamped: automatic, but flat at extremes so the curve never overshoots a key (the default)",
    }
}

/// View > Preview runtime ▸'s entries' tooltips.
pub fn preview_runtime_tooltip(runtime: Option<Runtime>) -> &'static str {
    match runtime {
        None => "Stop previewing how a runtime plays the export",
        Some(Runtime::Spec) => {
            "Draw the export the Export window's settings make as the glTF specification interpolates it (three.js plays the same), as a ghost, with each track's largest distance from its curve in the track list; kept up to date as you edit"
        }
        Some(Runtime::Three) => {
            "Draw the export the Export window's settings make as three.js r187 plays it, as a ghost, with each track's largest distance from its curve in the track list; kept up to date as you edit"
        }
        Some(Runtime::Blender) => {
            "Draw the export the Export window's settings make as Blender 4.2 and later (4.5, 5.0) import and play it (CUBICSPLINE tangents ignored, Auto handles, keys within 0.01 frames merged), as a ghost, with each track's largest distance from its curve in the track list; kept up to date as you edit"
        }
        Some(Runtime::Blender34) => {
            "Draw the export the Export window's settings make as Blender 3.4 imports and plays it (CUBICSPLINE tangents ignored, Auto Clamped handles), as a ghost, with each track's largest distance from its curve in the track list; kept up to date as you edit"
        }
        Some(Runtime::Godot) => {
            "Draw the export the Export window's settings make as Godot 3.2 imports and plays it (resampled at its import's 15 fps, CUBICSPLINE tangents misread, CUBICSPLINE weights dropped), as a ghost, with each track's largest distance in the track list; kept up to date as you edit"
        }
    }
}

impl Command {
    /// The command's menu text.
    pub fn text(self) -> &'static str {
        match self {
            Self::New => "New",
            Self::Open => "Open…",
            Self::OpenPath => "Open path…",
            Self::Save => "Save",
            Self::SaveAs => "Save as…",
            Self::Import => "Import…",
            Self::Export => "Export…",
            Self::Quit => "Quit",
            Self::Undo => "Undo",
            Self::Redo => "Redo",
            Self::SelectAll => "Select all keys",
            Self::DeselectAll => "Deselect all",
            Self::DeleteKeys => "Delete keys",
            Self::Copy => "Copy keys",
            Self::Paste => "Paste keys at playhead",
            Self::InsertKey => "Insert key at playhead",
            Self::Tool(tool) => tool.0.text,
            Self::HandleTypeMenu => "Handle type…",
            Self::InterpolationMenu => "Interpolation mode…",
            Self::EasingMenu => "Easing…",
            Self::EulerFilter => "Euler filter",
            Self::FixJumps => "Fix jumps",
            Self::ToggleProblems => "Problems",
            Self::Blend(tool) => match tool {
                BlendTool::ToNeighbor => "Blend to Neighbor…",
                BlendTool::Breakdown => "Breakdown…",
                BlendTool::ToEase => "Blend to Ease…",
            },
            Self::ClearGhost => "Clear ghost of the original",
            Self::SetHandleType(t) => match t {
                crate::HandleType::Free => "Free",
                crate::HandleType::Vector => "Vector",
                crate::HandleType::Aligned => "Aligned",
                crate::HandleType::Auto => "Automatic",
                crate::HandleType::AutoClamped => "Auto Clamped",
            },
            Self::SetKeyInterpolation(mode) => interpolation_text(mode),
            Self::SetEasing(easing) => match easing {
                Easing::Auto => "Automatic easing",
                Easing::In => "Ease in",
                Easing::Out => "Ease out",
                Easing::InOut => "Ease in and out",
            },
            Self::FrameAll => "Frame all",
            Self::FrameSelected => "Frame selected",
            Self::ToggleNormalize => "Normalize curves",
            Self::ToggleStacked => "Stacked curves",
            Self::ToggleFrameAxis => "Time in frames",
            Self::ToggleDockTools => "Dock tool windows",
            Self::ToggleTangents => "Show tangents",
            Self::ToggleSpeedGraph => "Show speed graph",
            Self::ToggleAllCurves => "Show every track's curve",
            Self::ToggleSnap => "Snap to frames and grid",
            Self::ToggleFrameStats => "Frame statistics",
            Self::PreviewRuntime(None) => "Off",
            Self::PreviewRuntime(Some(r)) => r.label(),
            Self::PlayPause => "Play / pause",
            Self::StepFrame => "Step one frame",
        }
    }

    pub fn tooltip(self) -> &'static str {
        match self {
            Self::New => "Start an empty project (asks before discarding unsaved changes)",
            Self::Open => "Open a project with the system's file dialog",
            Self::OpenPath => "Open a project by typing its path (works where no file dialog can open)",
            Self::Save => "Save the project to its file (atomically: a crash never leaves half a file)",
            Self::SaveAs => "Save the project to a new file",
            Self::Import => "Open glTF (.gltf, .glb), a three.js clip (.json), CSV, BVH motion capture or FBX with its exact values and tangents, as a new project or added to this one",
            Self::Export => "Bake and export the tracks for an engine: CSV, three.js JSON, glTF or GLB",
            Self::Quit => "Close Tangent (asks before discarding unsaved changes)",
            Self::Undo => "Undo the last edit; a whole drag or slider gesture is one step",
            Self::Redo => "Redo the last undone edit",
            Self::SelectAll => "Select every key of every visible track",
            Self::DeselectAll => "Clear the key selection",
            Self::DeleteKeys => "Delete the selected keys (a track keeps at least one key)",
            Self::Copy => "Copy the selected keys of the active track",
            Self::Paste => "Paste copied keys into the active track, the first at the playhead",
            Self::InsertKey => "Insert a key on the active track's curve at the playhead (double-click the curve also works)",
            Self::Tool(tool) => tool.0.tooltip,
            Self::HandleTypeMenu => "Set the handle type of the selected Bézier keys (Blender's V menu)",
            Self::InterpolationMenu => {
                "Set how the segment after each selected Bézier key runs: Bézier, Constant, Linear, or one of Blender's easing equations (Blender's T menu); the key stays one key you can change back"
            }
            Self::EasingMenu => "Set which end of the selected keys' easing segments eases: in, out, both, or the equation's usual one (Blender's Ctrl+E menu)",
            Self::FixJumps => {
                "Replace each spike (a joint turning or moving far more in a frame than around it, and back within 5 frames: a marker swap) by the interpolation across it, on the tracks of the selected keys or, with none selected, every track; a flip that lasts is reported, not changed; one undo step (docs/problems.md)"
            }
            Self::ToggleProblems => "List the take's jumps (spikes and lasting flips), most severe first; click one to go there",
            Self::EulerFilter => {
                "On the Euler tracks of the selected keys (or the active track): give each key the angles of the same rotation nearest the key before, removing 360° jumps and gimbal flips (Blender's Euler Filter); one undo step"
            }
            Self::Blend(BlendTool::ToNeighbor) => {
                "A slider for the selected keys: toward the key before their run (0) or after it (1), ½ leaves them; live, one undo step, Enter keeps, Escape restores (Blender's Blend to Neighbor)"
            }
            Self::Blend(BlendTool::Breakdown) => {
                "A slider for the selected keys: each to the point that far from the key before their run to the key after (Blender's Breakdown); live, one undo step, Enter keeps, Escape restores"
            }
            Self::Blend(BlendTool::ToEase) => {
                "A slider for the selected keys: toward an ease-in (−1) or ease-out (1) curve between their neighbours, 0 leaves them (Blender's Blend to Ease); live, one undo step, Enter keeps, Escape restores"
            }
            Self::ClearGhost => "Stop drawing the original curves (faint, dashed) that the last Smooth, Simplify, Scale time, Insert or Remove time, or blend slider left as a ghost",
            Self::SetHandleType(t) => handle_type_tooltip(t),
            Self::SetKeyInterpolation(mode) => interpolation_tooltip(mode),
            Self::SetEasing(easing) => match easing {
                Easing::Auto => "Automatic: the equation's usual end (Back, Bounce and Elastic ease out, the others ease in), as Blender",
                Easing::In => "Ease in: the effect at the start of the segment",
                Easing::Out => "Ease out: the effect at the end of the segment",
                Easing::InOut => "Ease in and out: the effect at both ends",
            },
            Self::FrameAll => "Fit every visible curve in the graph",
            Self::FrameSelected => "Fit the selected keys in the graph",
            Self::ToggleNormalize => "Scale each curve to [-1, 1] for display only (values are unchanged)",
            Self::ToggleStacked => "Give each curve (a track's component) its own lane, scaled to its own value range; drags move values in the lane's units",
            Self::ToggleFrameAxis => "Count the time axes in frames at the project's fps instead of seconds",
            Self::ToggleDockTools => "Open Smooth, Simplify, Scale time, Convert and the import report beside the graph (on) or floating, where you last moved them (off)",
            Self::ToggleTangents => "Draw the incoming (in, ra) and outgoing (out, rb) tangents of TCB keys",
            Self::ToggleSpeedGraph => "Show |dP/dt| of the active track under the graph, in both tangent modes",
            Self::ToggleAllCurves => "In a document of many tracks, draw every visible track's curve (by default only the active track and those with selected keys)",
            Self::ToggleSnap => "Snap dragged keys to frames and values to the grid (hold Ctrl to invert while dragging)",
            Self::ToggleFrameStats => "Show the last frames' CPU time (UI update, tessellation and painting) and what caused each repaint; TANGENT_FRAME_LOG=FILE logs every frame",
            Self::PreviewRuntime(r) => preview_runtime_tooltip(r),
            Self::PlayPause => "Play or pause the animation on the playback clock",
            Self::StepFrame => "Advance one frame in the playing direction (a negative speed steps backwards)",
        }
    }

    /// What a View toggle flips (`None` for every other command): a view setting or a
    /// window. The View menu shows it checked, the dispatcher flips it.
    pub fn toggle(self) -> Option<Toggle> {
        let view = |flag: fn(&mut ViewSettings) -> &mut bool| Some(Toggle::View(flag));
        match self {
            Self::ToggleNormalize => view(|v| &mut v.normalize),
            Self::ToggleStacked => view(|v| &mut v.stacked),
            Self::ToggleFrameAxis => view(|v| &mut v.frame_axis),
            Self::ToggleDockTools => view(|v| &mut v.dock_tools),
            Self::ToggleTangents => view(|v| &mut v.show_tangents),
            Self::ToggleSpeedGraph => view(|v| &mut v.show_speed),
            Self::ToggleAllCurves => view(|v| &mut v.show_all_curves),
            Self::ToggleSnap => view(|v| &mut v.snap),
            Self::ToggleFrameStats => Some(Toggle::Window(Window::FrameStats)),
            Self::ToggleProblems => Some(Toggle::Window(Window::Problems)),
            Self::New
            | Self::Open
            | Self::OpenPath
            | Self::Save
            | Self::SaveAs
            | Self::Import
            | Self::Export
            | Self::Quit
            | Self::Undo
            | Self::Redo
            | Self::SelectAll
            | Self::DeselectAll
            | Self::DeleteKeys
            | Self::Copy
            | Self::Paste
            | Self::InsertKey
            | Self::Tool(_)
            | Self::HandleTypeMenu
            | Self::InterpolationMenu
            | Self::EasingMenu
            | Self::EulerFilter
            | Self::FixJumps
            | Self::Blend(_)
            | Self::ClearGhost
            | Self::SetHandleType(_)
            | Self::SetKeyInterpolation(_)
            | Self::SetEasing(_)
            | Self::FrameAll
            | Self::FrameSelected
            | Self::PreviewRuntime(_)
            | Self::PlayPause
            | Self::StepFrame => None,
        }
    }

    /// The view setting a View toggle flips, if it flips one.
    pub fn view_flag(self, view: &mut ViewSettings) -> Option<&mut bool> {
        if let Some(Toggle::View(flag)) = self.toggle() {
            Some(flag(view))
        } else {
            None
        }
    }

    /// The window a View toggle opens and closes, if it is one.
    pub fn toggled_window(self) -> Option<Window> {
        if let Some(Toggle::Window(w)) = self.toggle() {
            Some(w)
        } else {
            None
        }
    }
}
