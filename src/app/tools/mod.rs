//! The table of tools: one row each ([`TOOLS`]), one file each beside this one. A row is the
//! tool's [`crate::app::tool::ToolInfo`] and its window (`tool_window::ToolWindow<T>`); the
//! menus, the shortcuts, the dispatcher and the app's panels read the table, so adding a tool
//! is its file and its row (docs/architecture.md, "A tool").

pub mod convert_bezier;
pub mod convert_rotation;
pub mod scale_time;
pub mod simplify;
pub mod smooth;
pub mod time_edit;

use crate::app::tool::{ToolId, ToolMenu};
use crate::app::tool_window::{ToolPanel, ToolRow};

/// Every tool, in the order the menus list them (and docked windows stack).
pub const TOOLS: &[ToolRow] = &[
    ToolRow::of::<convert_bezier::ConvertToBezier>(),
    ToolRow::of::<simplify::Simplify>(),
    ToolRow::of::<convert_rotation::ConvertRotation>(),
    ToolRow::of::<smooth::Smooth>(),
    ToolRow::of::<scale_time::ScaleTime>(),
    ToolRow::of::<time_edit::InsertTime>(),
    ToolRow::of::<time_edit::RemoveTime>(),
];

/// The tools listed in `menu`.
pub fn in_menu(menu: ToolMenu) -> impl Iterator<Item = ToolId> {
    TOOLS.iter().filter(move |r| r.info.menus.contains(&menu)).map(|r| ToolId(r.info))
}

/// Every tool.
pub fn all() -> impl Iterator<Item = ToolId> {
    TOOLS.iter().map(|r| ToolId(r.info))
}

/// The tools' windows, as the app holds them (one each, in the table's order).
pub struct ToolWindows(pub Vec<Box<dyn ToolPanel>>);

impl Default for ToolWindows {
    fn default() -> Self {
        Self(TOOLS.iter().map(|r| (r.window)()).collect())
    }
}

impl ToolWindows {
    /// Whether `tool`'s worker is busy (a preview or a conversion being made).
    #[must_use]
    pub fn is_busy(&self, tool: ToolId) -> bool {
        self.0.iter().any(|w| w.id() == tool && w.is_busy())
    }
}
