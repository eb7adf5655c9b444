//! The value graph's own state: the drag in progress, hover, the plot mapping, what to frame,
//! and the polylines and key markers kept between frames.

use eframe::egui::{Pos2, Vec2};
use egui_plot::{PlotPoint, PlotTransform};

use super::display::Display;
use super::hit::Target;
use super::{lod, markers};
use crate::edit::intent::{KeyRef, MoveOrigin};

/// A drag in progress.
#[derive(Clone, Debug)]
pub enum GraphDrag {
    Move {
        origin: PlotPoint,
        /// The plot's mapping when the drag began.
        at_start: PlotTransform,
        comp: usize,
        /// Display units per value unit of the grabbed component.
        scale: f64,
        /// Shown units per value unit of the grabbed track (`units::display_scale`: degrees
        /// for Euler angles), which snapping keeps a round step of.
        unit_scale: f64,
        /// Shared with the frames' moves (a worker makes a big selection's).
        origins: std::sync::Arc<Vec<MoveOrigin>>,
        /// The last move sent, `(dt, dv, snap)`: a frame with the pointer held still sends
        /// nothing (on the worker, each would move and compile every track again).
        sent: std::cell::Cell<Option<(f64, f64, Option<crate::edit::intent::Snap>)>>,
    },
    Box {
        origin: PlotPoint,
    },
    Tangent {
        key: KeyRef,
        origin: Pos2,
        dir: Vec2,
        length: f32,
        tension: f64,
        bias: f64,
    },
    Ease {
        key: KeyRef,
        from: bool,
    },
    /// A Bézier handle: the track and its curve as they were when the drag began, so each
    /// frame's edit is computed from the same start (one gesture, one undo step).
    Handle {
        key: KeyRef,
        comp: usize,
        side: crate::handles::Side,
        start: Box<(crate::Track, crate::TrackCurve)>,
        display: Display,
    },
    Scrub,
}

impl GraphDrag {
    /// The label of the gesture (one undo step) this drag is, if it edits the document.
    pub(super) fn gesture(&self) -> Option<&'static str> {
        match self {
            Self::Move { .. } => Some("Move keys"),
            Self::Tangent { .. } => Some("Drag tangent"),
            Self::Ease { .. } => Some("Drag ease"),
            Self::Handle { .. } => Some("Drag handle"),
            Self::Box { .. } | Self::Scrub => None,
        }
    }
}

/// The value graph and what lives only while the editor runs.
pub struct Graph {
    pub drag: Option<GraphDrag>,
    pub hover: Option<Target>,
    /// The curve under the pointer (`hover.rs`), named in a tooltip.
    pub curve_hover: Option<super::hover::CurveHover>,
    /// The value graph's plot-to-screen mapping in the last frame.
    pub transform: Option<PlotTransform>,
    /// Where the last click was: a double-click counts only on the same spot.
    pub last_click: Option<Pos2>,
    /// Fit every visible curve (or the selection) in the next frame.
    pub frame_all: bool,
    pub frame_selected: bool,
    /// Height of the plot (the speed graph takes the rest).
    pub height: f32,
    /// The most points one curve was drawn with in the last frame.
    pub drawn_points: usize,
    /// Each drawn track's polylines, kept between frames (`lod.rs`).
    pub curves: lod::CurveCache,
    /// Each drawn track's key markers, kept between frames (`markers.rs`).
    pub markers: markers::MarkerCache,
    /// Each dense track's curves as one image, kept between frames (`band.rs`).
    pub bands: super::band::BandCache,
    /// Each drawn track's curve stamp and value extent in display units in the last frame:
    /// an edit that takes a curve out of the view frames the view (`mod.rs`).
    pub extents: std::collections::HashMap<usize, (u64, f64, f64)>,
}

impl Default for Graph {
    fn default() -> Self {
        Self {
            drag: None,
            hover: None,
            curve_hover: None,
            transform: None,
            last_click: None,
            frame_all: true,
            frame_selected: false,
            height: 400.0,
            drawn_points: 0,
            curves: lod::CurveCache::default(),
            markers: markers::MarkerCache::default(),
            bands: super::band::BandCache::default(),
            extents: std::collections::HashMap::new(),
        }
    }
}
