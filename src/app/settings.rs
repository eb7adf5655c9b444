//! What persists between runs: the view settings (`eframe` storage), never the document or
//! its history. Below the commands that carry them ([`super::commands::AppCommand::SetView`]).

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::euler::EulerOrder;

/// View settings that persist between runs (never the document or its history).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct ViewSettings {
    pub normalize: bool,
    /// The graph gives each drawn curve (a track's component) its own lane, scaled to the lane
    /// by its keys' range (`graph/display.rs`); edits work in the lane's units.
    pub stacked: bool,
    /// The time axes count frames at the project's fps instead of seconds.
    pub frame_axis: bool,
    /// Tool windows (Smooth, Simplify, Scale time, Convert…, the import report) open docked
    /// below the graph rather than floating over it (`style::tool_window`).
    pub dock_tools: bool,
    pub show_tangents: bool,
    pub show_speed: bool,
    /// Draw every visible track's curve even in a large document (more than
    /// [`LARGE_DOCUMENT_TRACKS`] tracks), where by default only the active track and the tracks
    /// with selected keys are drawn, as Blender's graph editor shows the selected objects.
    pub show_all_curves: bool,
    /// Seconds between recovery copies while there are unsaved changes (`recovery.rs`).
    pub autosave_secs: f64,
    pub snap: bool,
    /// `(track name, component)` pairs hidden in the graph.
    pub hidden_components: BTreeSet<(String, usize)>,
    pub recent_files: Vec<PathBuf>,
    /// Which view fills the centre.
    pub central: CentralView,
    /// Path view: the plane a Vec3 path is projected on.
    pub plane: Plane,
    /// Playback follows the constant-speed (arc-length) motion.
    pub constant_speed: bool,
    /// Error bound of the path view's arc-length table.
    pub arclen_tolerance: f64,
    /// Order of the Euler angles (Blender's meaning, `euler.rs`) the inspector shows for
    /// quaternion keys.
    #[serde(deserialize_with = "saved_order")]
    pub euler_order: EulerOrder,
    /// The pose view's up axis, grid, onion skin and trail.
    pub pose: PoseSettings,
}

/// Which file axis is up in the pose view.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum UpAxis {
    #[default]
    Y,
    Z,
}

/// The pose view's settings (its default in `pose_view.rs`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct PoseSettings {
    pub up: UpAxis,
    pub grid: bool,
    /// The camera moves with the root as the take travels.
    pub follow: bool,
    /// Ghost poses on each side of the playhead (0: none).
    pub onion: usize,
    /// Frames between ghost poses.
    pub onion_step: usize,
    /// The selected joints' trail window in seconds, centred on the playhead (0: none).
    pub trail_seconds: f64,
}

/// An order as saved by this version (`"XYZ"`) or an earlier one, which named orders as
/// three.js does by the matrix product (`"Xyz"` = Rx·Ry·Rz, X applied last): read as the same
/// rotation in Blender's names (`"Xyz"` is `ZYX`), so a saved choice keeps its meaning and the
/// rest of the settings still load.
fn saved_order<'de, D: serde::Deserializer<'de>>(d: D) -> Result<EulerOrder, D::Error> {
    #[derive(Deserialize)]
    #[allow(clippy::upper_case_acronyms)]
    enum Saved {
        XYZ,
        XZY,
        YXZ,
        YZX,
        ZXY,
        ZYX,
        Xyz,
        Xzy,
        Yxz,
        Yzx,
        Zxy,
        Zyx,
    }
    use EulerOrder as O;
    Ok(match Saved::deserialize(d)? {
        Saved::XYZ | Saved::Zyx => O::XYZ,
        Saved::XZY | Saved::Yzx => O::XZY,
        Saved::YXZ | Saved::Zxy => O::YXZ,
        Saved::YZX | Saved::Xzy => O::YZX,
        Saved::ZXY | Saved::Yxz => O::ZXY,
        Saved::ZYX | Saved::Xyz => O::ZYX,
    })
}

#[cfg(test)]
mod saved_order_tests {
    use super::*;

    /// This version's names read back as written; an earlier version's three.js names as the
    /// same rotation (`Xyz` = Rx·Ry·Rz applies Z first: Blender's `ZYX`), the other settings kept.
    #[test]
    fn saved_orders_keep_their_meaning() {
        for order in EulerOrder::ALL {
            let text = ron::to_string(&ViewSettings { euler_order: order, arclen_tolerance: 0.5, ..ViewSettings::default() }).unwrap();
            let back: ViewSettings = ron::from_str(&text).unwrap();
            assert_eq!((back.euler_order, back.arclen_tolerance), (order, 0.5));
        }
        let old = ron::to_string(&ViewSettings { arclen_tolerance: 0.5, ..ViewSettings::default() }).unwrap().replace("euler_order:XYZ", "euler_order:Yzx");
        assert!(old.contains("euler_order:Yzx"), "{old}");
        let back: ViewSettings = ron::from_str(&old).unwrap();
        assert_eq!((back.euler_order, back.arclen_tolerance), (EulerOrder::XZY, 0.5));
        // The product Rx·Rz·Ry of an old `Xzy` is Blender's YZX, checked on a matrix.
        let [a, b, c] = [0.3, -0.7, 1.1];
        let m =
            crate::euler::mat_mul(&crate::euler::axis_matrix(0, a), &crate::euler::mat_mul(&crate::euler::axis_matrix(2, c), &crate::euler::axis_matrix(1, b)));
        assert!(crate::euler::mat_distance(&m, &crate::euler::to_matrix(&[a, b, c], EulerOrder::YZX)) < 1e-15);
    }
}

/// The view in the centre of the window.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum CentralView {
    #[default]
    Graph,
    Path,
    Rotation,
    Pose,
    /// One row of key marks per track (`dope_sheet.rs`).
    DopeSheet,
}

/// Which two components the path view shows.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum Plane {
    #[default]
    Xy,
    Xz,
    Yz,
}

impl Plane {
    pub fn axes(self) -> (usize, usize) {
        match self {
            Self::Xy => (0, 1),
            Self::Xz => (0, 2),
            Self::Yz => (1, 2),
        }
    }
}

impl Default for ViewSettings {
    fn default() -> Self {
        Self {
            normalize: false,
            stacked: false,
            frame_axis: false,
            dock_tools: true,
            show_tangents: true,
            show_speed: true,
            show_all_curves: false,
            autosave_secs: 30.0,
            snap: false,
            hidden_components: BTreeSet::new(),
            recent_files: Vec::new(),
            central: CentralView::Graph,
            plane: Plane::Xy,
            constant_speed: false,
            arclen_tolerance: crate::DEFAULT_ACCURACY,
            euler_order: EulerOrder::XYZ,
            pose: PoseSettings::default(),
        }
    }
}

/// Above this many tracks a document is large: the graph draws the active and selected
/// tracks' curves unless [`ViewSettings::show_all_curves`].
pub const LARGE_DOCUMENT_TRACKS: usize = 16;

impl ViewSettings {
    /// Whether component `comp` of the track named `name` is drawn.
    pub fn component_shown(&self, name: &str, comp: usize) -> bool {
        !self.hidden_components.iter().any(|(n, c)| n == name && *c == comp)
    }

    pub fn remember_recent(&mut self, path: &Path) {
        let path = path.canonicalize().unwrap_or_else(|_| path.to_owned());
        self.recent_files.retain(|p| p != &path);
        self.recent_files.insert(0, path);
        self.recent_files.truncate(RECENT_FILES);
    }
}

/// How many recent files File > Open recent lists.
pub const RECENT_FILES: usize = 8;
