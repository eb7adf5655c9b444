//! The document model: a [`Project`] holds named [`Track`]s, a track holds time-sorted
//! [`Key`]s of one [`TrackKind`] (SPEC §1, §8).
//!
//! These are plain data: what is saved in a `.ron` file and what the editor's undoable
//! commands change. Evaluation never reads them directly; it compiles a track into a
//! [`crate::TrackCurve`] first, which is where every invariant is checked.
//!
//! Every struct of the file denies unknown fields (`#[serde(deny_unknown_fields)]`): a
//! misspelt `tensoin: 0.5` would otherwise load as tension 0, and the user believe the key had
//! tension. Loading names the field, its line and column and the nearest known name
//! ([`crate::FileError::UnknownField`]). A field a later version removes must stay here as an
//! alias or a field with a default, or old files stop loading.

use serde::{Deserialize, Serialize};

mod export_settings;
mod key;
mod keys;
pub use export_settings::ExportSettings;
pub use key::{Key, KEY_AMPLITUDE, KEY_BACK, KEY_PERIOD};
pub(crate) use keys::spliced;
pub use keys::{share_times, Columns, Keys};

pub use crate::easing::{EaseParams, Easing, KeyInterpolation};
pub use crate::euler::EulerOrder;
pub use crate::skeleton::{Joint, Skeleton};

/// The newest project file version this program reads. Saving writes the lowest version that
/// holds the project ([`Project::required_version`]): 1, 2 with Bezier tracks (SPEC §10), 3
/// with Euler tracks (SPEC §13), 4 with per-key interpolation or auto smoothing, 5 with a
/// skeleton joint's rest rotation or scale, pre- or post-rotation, pivot or offset (SPEC §14),
/// 6 with the Export window's settings ([`Project::export`]).
pub const FILE_VERSION: u32 = 6;

/// What a key's value is: how many components, and how they combine.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum TrackKind {
    Scalar,
    Vec2,
    Vec3,
    Vec4,
    /// A rotation as a unit quaternion `[x, y, z, w]` (three.js order).
    Quat,
    /// A rotation as Euler angles `[x, y, z]` in radians about the X, Y and Z axes, applied
    /// in the track's `order` (SPEC §13); interpolated per component, never wrapped.
    Euler,
}

impl TrackKind {
    pub const ALL: [TrackKind; 6] = [Self::Scalar, Self::Vec2, Self::Vec3, Self::Vec4, Self::Quat, Self::Euler];

    /// Number of `f64` components in one value.
    #[must_use]
    pub const fn dim(self) -> usize {
        match self {
            Self::Scalar => 1,
            Self::Vec2 => 2,
            Self::Vec3 | Self::Euler => 3,
            Self::Vec4 | Self::Quat => 4,
        }
    }

    /// Names of the components, for labels and CSV headers.
    #[must_use]
    pub const fn component_names(self) -> &'static [&'static str] {
        match self {
            Self::Scalar => &["v"],
            Self::Vec2 => &["x", "y"],
            Self::Vec3 | Self::Euler => &["x", "y", "z"],
            Self::Vec4 => &["x", "y", "z", "w"],
            Self::Quat => &["x", "y", "z", "w"],
        }
    }

    /// The value a new key of this kind starts with.
    #[must_use]
    pub fn zero_value(self) -> Vec<f64> {
        match self {
            Self::Quat => vec![0.0, 0.0, 0.0, 1.0],
            k => vec![0.0; k.dim()],
        }
    }

    /// Whether values are rotations (Quat or Euler).
    #[must_use]
    pub const fn is_rotation(self) -> bool {
        matches!(self, Self::Quat | Self::Euler)
    }
}

/// How values between two keys are produced (SPEC §3). What each mode can do is its row of
/// the table of modes (`curve/modes.rs`: `Interpolation::mode`, `ALL`, `supports`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, strum::EnumCount)]
pub enum Interpolation {
    /// The value of the key at or before `t` (three.js `DiscreteInterpolant`).
    Step,
    /// three.js `LinearInterpolant`.
    Linear,
    /// three.js `CubicInterpolant` with the track's two [`Ending`]s.
    Cubic,
    /// Kochanek–Bartels with tension, continuity, bias and ease (SPEC §4).
    Tcb,
    /// Spherical linear interpolation per segment, shortest arc (three.js `slerpFlat`).
    Slerp,
    /// Normalised linear interpolation, shortest arc.
    Nlerp,
    /// Spherical cubic through the keys (numpy-quaternion `squad`).
    Squad,
    /// Cubic Bézier segments from per-key handles with Blender's handle types (SPEC §10);
    /// Quat tracks interpolate component-wise, then normalise.
    Bezier,
}

/// How a Bézier key's handle is placed (SPEC §10, as Blender 3.4's F-curve handles with
/// smoothing "None").
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum HandleType {
    /// As stored.
    Free,
    /// As stored, but kept collinear with the key's other handle (which keeps its length).
    Aligned,
    /// A third of the way to the neighbouring key, pointing at it.
    Vector,
    /// Computed from the neighbouring keys.
    Auto,
    /// Like Auto, but flat at extremes and never past a neighbour's value.
    #[default]
    AutoClamped,
}

impl HandleType {
    pub const ALL: [HandleType; 5] = [Self::Free, Self::Aligned, Self::Vector, Self::Auto, Self::AutoClamped];

    /// Whether the handle is computed from the neighbours (and stored handles are ignored).
    #[must_use]
    pub const fn is_automatic(self) -> bool {
        matches!(self, Self::Vector | Self::Auto | Self::AutoClamped)
    }
}

/// How TCB tangents are measured (SPEC §4, "Tangent modes").
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum TangentMode {
    /// Tangents per unit of local segment time, exactly as seed 001 (and 3DS files).
    #[default]
    Seed,
    /// Interior tangents rescaled for unequal key spacing (Kochanek & Bartels 1984), which
    /// makes the curve C¹ in global time when continuity is 0.
    TimeAdjusted,
}

/// End condition of a three.js cubic track.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Ending {
    /// Second derivative zero at the end (natural spline). three.js' default.
    #[default]
    ZeroCurvature,
    /// First derivative zero at the end.
    ZeroSlope,
    /// Use the keys at the other end, for tracks whose last value equals the first.
    WrapAround,
}

/// How a Bezier track's automatic handles are solved: Blender's F-curve "Auto Handle
/// Smoothing" (`fcurve.auto_smoothing`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum AutoSmoothing {
    /// Each key's handles from its neighbours alone (Blender's `NONE`; files without the field).
    #[default]
    None,
    /// Runs of automatic keys solved together so the acceleration is continuous through them
    /// (Blender's `CONT_ACCEL`, its default for new curves; see [`crate::bezier`]).
    ContinuousAcceleration,
}

/// What a track does before its first key or after its last one (SPEC §1).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Infinity {
    /// Hold the end value.
    #[default]
    Constant,
    /// Continue along the end tangent.
    Linear,
    /// Repeat the keyed range.
    Cycle,
    /// Repeat the keyed range, each repetition shifted by `last − first`.
    CycleOffset,
    /// Repeat the keyed range, every other repetition reversed.
    PingPong,
}

impl Infinity {
    pub const ALL: [Infinity; 5] = [Self::Constant, Self::Linear, Self::Cycle, Self::CycleOffset, Self::PingPong];

    /// Whether a track of `kind` may use this mode (rotations cannot be offset or extrapolated).
    #[must_use]
    pub const fn supports(self, kind: TrackKind) -> bool {
        match kind {
            TrackKind::Quat => matches!(self, Self::Constant | Self::Cycle | Self::PingPong),
            _ => true,
        }
    }
}

/// An RGB colour for drawing a track; editor-only, optional in files.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Rgb(pub u8, pub u8, pub u8);

fn is_default<T: Default + PartialEq>(x: &T) -> bool {
    *x == T::default()
}
fn default_true() -> bool {
    true
}
fn is_true(b: &bool) -> bool {
    *b
}

/// A named animation channel: keys of one kind, interpolated one way.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Track {
    pub name: String,
    pub kind: TrackKind,
    pub interpolation: Interpolation,
    /// Euler tracks: the order the axes are applied in (SPEC §13); ignored by other kinds.
    #[serde(default, skip_serializing_if = "is_default")]
    pub order: EulerOrder,
    #[serde(default, skip_serializing_if = "is_default")]
    pub tangents: TangentMode,
    #[serde(default, skip_serializing_if = "is_default")]
    pub ending_start: Ending,
    #[serde(default, skip_serializing_if = "is_default")]
    pub ending_end: Ending,
    #[serde(default, skip_serializing_if = "is_default")]
    pub pre_infinity: Infinity,
    #[serde(default, skip_serializing_if = "is_default")]
    pub post_infinity: Infinity,
    /// Bezier tracks: how automatic handles are solved (file version 4 when not `None`).
    #[serde(default, skip_serializing_if = "is_default")]
    pub auto_smoothing: AutoSmoothing,
    /// Drawing colour in the editor; `None` picks one from the track's position.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub color: Option<Rgb>,
    /// Shown in the editor's views.
    #[serde(default = "default_true", skip_serializing_if = "is_true")]
    pub visible: bool,
    /// Locked tracks refuse edits in the editor.
    #[serde(default, skip_serializing_if = "is_default")]
    pub locked: bool,
    /// Where an imported track came from, so export writes it back there (SPEC §11);
    /// `None` for tracks made in Tangent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub binding: Option<Binding>,
    pub keys: Keys,
}

/// A track's name, colour, visibility and lock: what its row in the track list sets, apart
/// from its keys and modes. Changing only these ([`crate::Edit::SetHeader`]) neither copies
/// the keys nor recompiles the curve.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TrackHeader {
    pub name: String,
    pub color: Option<Rgb>,
    pub visible: bool,
    pub locked: bool,
}

impl Track {
    /// The track's [`TrackHeader`].
    #[must_use]
    pub fn header(&self) -> TrackHeader {
        TrackHeader { name: self.name.clone(), color: self.color, visible: self.visible, locked: self.locked }
    }

    /// Puts `header` in place and returns the one it replaces.
    pub fn replace_header(&mut self, header: TrackHeader) -> TrackHeader {
        let TrackHeader { name, color, visible, locked } = header;
        TrackHeader {
            name: std::mem::replace(&mut self.name, name),
            color: std::mem::replace(&mut self.color, color),
            visible: std::mem::replace(&mut self.visible, visible),
            locked: std::mem::replace(&mut self.locked, locked),
        }
    }

    /// Whether `other` compiles to the same curve as this track: only the name, colour,
    /// binding, visibility or lock may differ. (Every field is named, so a new one has to be
    /// placed on one side or the other.)
    #[must_use]
    pub fn same_curve(&self, other: &Track) -> bool {
        let Track {
            name: _,
            kind,
            interpolation,
            order,
            tangents,
            ending_start,
            ending_end,
            pre_infinity,
            post_infinity,
            auto_smoothing,
            color: _,
            visible: _,
            locked: _,
            binding: _,
            keys,
        } = self;
        *kind == other.kind
            && *interpolation == other.interpolation
            && (*order == other.order || *kind != TrackKind::Euler)
            && *tangents == other.tangents
            && *ending_start == other.ending_start
            && *ending_end == other.ending_end
            && *pre_infinity == other.pre_infinity
            && *post_infinity == other.post_infinity
            && *auto_smoothing == other.auto_smoothing
            && *keys == other.keys
    }

    /// This track's settings with `keys` in place of its own (which are not copied).
    #[must_use]
    pub fn with_other_keys(&self, keys: impl Into<Keys>) -> Track {
        let Track {
            name,
            kind,
            interpolation,
            order,
            tangents,
            ending_start,
            ending_end,
            pre_infinity,
            post_infinity,
            auto_smoothing,
            color,
            visible,
            locked,
            binding,
            keys: _,
        } = self;
        Track {
            name: name.clone(),
            kind: *kind,
            interpolation: *interpolation,
            order: *order,
            tangents: *tangents,
            ending_start: *ending_start,
            ending_end: *ending_end,
            pre_infinity: *pre_infinity,
            post_infinity: *post_infinity,
            auto_smoothing: *auto_smoothing,
            color: *color,
            visible: *visible,
            locked: *locked,
            binding: binding.clone(),
            keys: keys.into(),
        }
    }

    /// An empty track with default settings.
    #[must_use]
    pub fn new(name: impl Into<String>, kind: TrackKind, interpolation: Interpolation) -> Self {
        Self {
            name: name.into(),
            kind,
            interpolation,
            order: EulerOrder::XYZ,
            tangents: TangentMode::Seed,
            ending_start: Ending::ZeroCurvature,
            ending_end: Ending::ZeroCurvature,
            pre_infinity: Infinity::Constant,
            post_infinity: Infinity::Constant,
            auto_smoothing: AutoSmoothing::None,
            color: None,
            visible: true,
            locked: false,
            binding: None,
            keys: Keys::new(),
        }
    }

    /// Builder-style: set the keys.
    #[must_use]
    pub fn with_keys(mut self, keys: Vec<Key>) -> Self {
        self.keys = keys.into();
        self
    }

    /// Time of the first and last key, if any.
    #[must_use]
    pub fn time_range(&self) -> Option<(f64, f64)> {
        let n = self.keys.len();
        (n > 0).then(|| (self.keys.time(0), self.keys.time(n - 1)))
    }
}

/// The property a glTF channel animates.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum GltfProperty {
    Translation,
    Rotation,
    Scale,
    /// Morph target weights (one track per target, see [`Element`]).
    Weights,
}

/// The value type of a three.js keyframe track (`ValueTypeName`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum ThreeValueType {
    Number,
    Vector,
    Color,
    Quaternion,
    /// Booleans, held as 0 and 1 on a Step track.
    Bool,
}

/// One value of several per key in the source: morph target `index` of `count` (a glTF
/// `weights` channel, a three.js number track with several values per key). Export puts the
/// tracks of one source channel back together.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Element {
    pub index: usize,
    pub count: usize,
}

/// Where an imported track came from (SPEC §11): export writes the track back to it unless
/// told otherwise.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub enum Binding {
    /// A glTF animation channel: the animation's name (`animation<i>` if it had none), the
    /// node's index in the source file and its name (if it had one), the property.
    Gltf {
        animation: String,
        node: usize,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        node_name: Option<String>,
        property: GltfProperty,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        element: Option<Element>,
    },
    /// A node of a skeleton or scene by name (a BVH joint, an FBX node): the animation (take
    /// or stack) it came from, the node's name and the property. Export writes the node by
    /// this name (version 3).
    Node {
        animation: String,
        node: String,
        property: GltfProperty,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        element: Option<Element>,
    },
    /// A three.js keyframe track: its property path (`Hips.position`) and value type.
    Three {
        path: String,
        value_type: ThreeValueType,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        element: Option<Element>,
    },
}

impl Binding {
    /// The morph target (or value) this track holds, if its source had several per key.
    #[must_use]
    pub fn element(&self) -> Option<Element> {
        match self {
            Self::Gltf { element, .. } | Self::Node { element, .. } | Self::Three { element, .. } => *element,
        }
    }
}

impl std::fmt::Display for Binding {
    /// `glTF node 3 "Hips" rotation (animation "Walk")`, `three.js Hips.position (vector)`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let element = |e: &Option<Element>| e.map(|e| format!("[{}]", e.index)).unwrap_or_default();
        match self {
            Self::Gltf { animation, node, node_name, property, element: e } => {
                let name = node_name.as_ref().map(|n| format!(" {n:?}")).unwrap_or_default();
                let property = format!("{property:?}").to_lowercase();
                write!(f, "glTF node {node}{name} {property}{} (animation {animation:?})", element(e))
            }
            Self::Node { animation, node, property, element: e } => {
                let property = format!("{property:?}").to_lowercase();
                write!(f, "node {node:?} {property}{} (animation {animation:?})", element(e))
            }
            Self::Three { path, value_type, element: e } => write!(f, "three.js {path}{} ({})", element(e), format!("{value_type:?}").to_lowercase()),
        }
    }
}

fn default_fps() -> f64 {
    crate::DEFAULT_FPS
}

/// A document: what one `.ron` file holds.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Project {
    pub version: u32,
    #[serde(default = "default_fps")]
    pub fps: f64,
    pub tracks: Vec<Track>,
    /// The joint hierarchy of an imported take (BVH), for export (version 3).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub skeleton: Option<Skeleton>,
    /// The Export window's settings, once changed (saved with the project, version 6).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub export: Option<ExportSettings>,
}

impl Default for Project {
    fn default() -> Self {
        Self { version: 1, fps: default_fps(), tracks: Vec::new(), skeleton: None, export: None }
    }
}

impl Project {
    /// The file version that can hold this project: 6 if it keeps export settings; else 5 if
    /// a skeleton joint has a rest rotation or scale; else 4 if any track has `auto_smoothing` or a
    /// key has segment settings (interpolation, easing and its parameters); else 3 if any track is Euler or has an
    /// `order` or a node binding, or the project has a skeleton (SPEC §13), else 2 if any track is Bezier or any key has handles (SPEC §10),
    /// else 1, so files stay readable by programs that know only the older versions.
    #[must_use]
    pub fn required_version(&self) -> u32 {
        let default_handles = (HandleType::default(), HandleType::default());
        let euler = self.skeleton.is_some()
            || self.tracks.iter().any(|t| t.kind == TrackKind::Euler || t.order != EulerOrder::default() || matches!(t.binding, Some(Binding::Node { .. })));
        let bezier = self.tracks.iter().any(|t| {
            t.interpolation == Interpolation::Bezier
                || t.keys.full_keys().is_some_and(|keys| keys.iter().any(|k| k.handles != default_handles || !k.left.is_empty() || !k.right.is_empty()))
        });
        let segments = self
            .tracks
            .iter()
            .any(|t| t.auto_smoothing != AutoSmoothing::None || t.keys.full_keys().is_some_and(|keys| keys.iter().any(|k| !k.has_default_segment())));
        let rest = self.skeleton.as_ref().is_some_and(|s| s.joints.iter().any(crate::skeleton::Joint::has_rest_transform));
        if self.export.is_some() {
            6
        } else if rest {
            5
        } else if segments {
            4
        } else if euler {
            3
        } else if bezier {
            2
        } else {
            1
        }
    }

    /// The track called `name`.
    #[must_use]
    pub fn track(&self, name: &str) -> Option<&Track> {
        self.tracks.iter().find(|t| t.name == name)
    }

    /// Time spanned by all keys of all tracks.
    #[must_use]
    pub fn time_range(&self) -> Option<(f64, f64)> {
        self.tracks.iter().filter_map(Track::time_range).reduce(|a, b| (a.0.min(b.0), a.1.max(b.1)))
    }
}
