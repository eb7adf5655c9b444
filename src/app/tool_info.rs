//! Which tool a command or a window is about: a tool's row ([`ToolInfo`]: its name, menu
//! entry, tooltip, menus and shortcut) and [`ToolId`], the handle commands, windows and the
//! previews carry (compared by name). Plain data, below the commands and windows that carry it; the tool
//! abstraction itself is `tool.rs`.

use eframe::egui;

/// The menus a tool is listed in (after the menu's own entries).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ToolMenu {
    Edit,
    Key,
    Track,
}

/// A tool's row: what menus, shortcuts and the status bar call it.
#[derive(Debug)]
pub struct ToolInfo {
    /// The window's title, the undo step's label and the status bar's prefix ("Smooth").
    pub name: &'static str,
    /// The menu entry ("Smooth…").
    pub text: &'static str,
    pub tooltip: &'static str,
    pub menus: &'static [ToolMenu],
    pub shortcut: Option<egui::KeyboardShortcut>,
}

/// Which tool: its row, compared by name (commands and windows carry it).
#[derive(Clone, Copy, Debug)]
pub struct ToolId(pub &'static ToolInfo);

impl ToolId {
    #[must_use]
    pub fn name(self) -> &'static str {
        self.0.name
    }
}

impl PartialEq for ToolId {
    fn eq(&self, other: &Self) -> bool {
        self.0.name == other.0.name
    }
}

impl Eq for ToolId {}

impl PartialOrd for ToolId {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for ToolId {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.0.name.cmp(other.0.name)
    }
}

impl std::hash::Hash for ToolId {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.0.name.hash(state);
    }
}
