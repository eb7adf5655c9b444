//! Which windows are open ([`Window`], [`Windows`]: one container, as egui's demo app keeps
//! its windows', so menus, shortcuts and tests open them the same way; a tool's by its
//! `ToolId`) and what the dispatcher asks of a panel's own state ([`PanelRequest`]).

use std::path::PathBuf;

use super::tool_info::ToolId;

/// A window that opens over the editor (its open flag kept in one container, [`Windows`], as
/// egui's demo app keeps its windows', so menus, shortcuts and tests open them the same way).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Window {
    Export,
    Import,
    /// A tool's window (`tool_window.rs`), opened from its menu entry.
    Tool(ToolId),
    /// Blender's `V` menu.
    HandleTypeMenu,
    /// Blender's `T` menu.
    InterpolationMenu,
    /// Blender's `Ctrl+E` menu.
    EasingMenu,
    /// View > Frame statistics.
    FrameStats,
    /// View > Problems.
    Problems,
}

/// Which windows are open.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Windows(std::collections::BTreeSet<Window>);

impl Windows {
    #[must_use]
    pub fn is_open(&self, w: Window) -> bool {
        self.0.contains(&w)
    }

    pub fn open(&mut self, w: Window) {
        self.0.insert(w);
    }

    /// Closes `w`; whether it was open.
    pub fn close(&mut self, w: Window) -> bool {
        self.0.remove(&w)
    }

    /// Opens `w` if it is closed, closes it if it is open (a View menu toggle).
    pub fn toggle(&mut self, w: Window) {
        if !self.close(w) {
            self.open(w);
        }
    }
}

/// What the dispatcher asks of a panel's own state, handed over by the app after the frame's
/// commands (the dispatcher knows no panel).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PanelRequest {
    /// Fit every visible curve in the graph (and the body in the pose view: Home).
    FrameAll,
    /// Fit the curves in the graph only (the shown tracks changed).
    FrameGraph,
    /// Fit the selected keys in the graph.
    FrameSelected,
    /// Show the Import window on this file, or ask for one (the system's dialog) if none is
    /// chosen yet.
    Import(Option<PathBuf>),
    /// Import this file as a new project at once, with the window's progress bar and Cancel
    /// (`tangent BIG.glb`: a big file is not read before the window is up).
    ImportNow(PathBuf),
}
