//! The pose view's camera and drawing (`pose_view.rs` is the panel): an orthographic orbit
//! [`Camera`] and its per-frame [`Projector`], and [`Strokes`], the one mesh every bone, grid
//! line and trail of a frame is drawn into.

use eframe::egui::{self, Color32, Pos2, Rect, Vec2};

use super::settings::UpAxis;
use crate::body::{Pose, Rig};

const GRID: Color32 = Color32::from_gray(70);

/// An orthographic orbit camera: it looks at `target` from the direction given by `yaw` and
/// `pitch` (radians; yaw 0 and pitch 0 look along −Z of the Y-up frame: the front), `zoom`
/// points per file unit.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Camera {
    pub yaw: f64,
    pub pitch: f64,
    pub zoom: f64,
    pub target: [f64; 3],
}

impl Default for Camera {
    fn default() -> Self {
        Self { yaw: 0.5, pitch: 0.3, zoom: 1.0, target: [0.0; 3] }
    }
}

/// The camera's presets: (name, yaw, pitch, tooltip).
pub(super) const PRESETS: [(&str, f64, f64, &str); 3] = [
    ("Front", 0.0, 0.0, "Look along −Z at the body's front (Y up)"),
    ("Side", std::f64::consts::FRAC_PI_2, 0.0, "Look along −X at the body's side"),
    ("Top", 0.0, 1.5707, "Look down at the body from above"),
];

impl Camera {
    /// Right, up and towards-the-eye unit vectors in the Y-up frame.
    pub(super) fn basis(&self) -> [[f64; 3]; 3] {
        let (sy, cy) = self.yaw.sin_cos();
        let (sp, cp) = self.pitch.sin_cos();
        let eye = [cp * sy, sp, cp * cy];
        let right = [cy, 0.0, -sy];
        // up = eye × right
        let up = [eye[1] * right[2] - eye[2] * right[1], eye[2] * right[0] - eye[0] * right[2], eye[0] * right[1] - eye[1] * right[0]];
        [right, up, eye]
    }

    /// The projection of world points (file axes, `up` saying which is up) into `rect` for one
    /// frame: the basis worked out once (a trail projects thousands of
    /// points a frame).
    pub(super) fn projector(&self, up: UpAxis, rect: Rect) -> Projector {
        Projector { basis: self.basis(), target: self.target, zoom: self.zoom, center: rect.center(), up }
    }

    /// Fits `points` (file axes) in `rect` with a margin.
    pub(super) fn frame(&mut self, points: &[[f64; 3]], up: UpAxis, rect: Rect) {
        let q: Vec<[f64; 3]> = points.iter().map(|&p| y_up(p, up)).filter(|p| p.iter().all(|x| x.is_finite())).collect();
        if q.is_empty() {
            return;
        }
        let lo = [0, 1, 2].map(|a| q.iter().map(|p| p[a]).fold(f64::INFINITY, f64::min));
        let hi = [0, 1, 2].map(|a| q.iter().map(|p| p[a]).fold(f64::NEG_INFINITY, f64::max));
        self.target = [0, 1, 2].map(|a| (lo[a] + hi[a]) / 2.0);
        let extent = (0..3).map(|a| hi[a] - lo[a]).fold(0.0, f64::max).max(1e-9);
        self.zoom = 0.75 * f64::from(rect.width().min(rect.height())) / extent;
    }
}

/// Where world points (file axes) land on screen for one frame: the camera's basis computed once.
pub(super) struct Projector {
    basis: [[f64; 3]; 3],
    target: [f64; 3],
    zoom: f64,
    center: Pos2,
    up: UpAxis,
}

impl Projector {
    /// The screen position and depth (towards the eye) of the world point `p`.
    pub(super) fn at(&self, p: [f64; 3]) -> (Pos2, f64) {
        let q = y_up(p, self.up);
        let d = [q[0] - self.target[0], q[1] - self.target[1], q[2] - self.target[2]];
        let [r, u, e] = self.basis;
        let dot = |a: [f64; 3]| a[0] * d[0] + a[1] * d[1] + a[2] * d[2];
        (Pos2::new(self.center.x + (self.zoom * dot(r)) as f32, self.center.y - (self.zoom * dot(u)) as f32), dot(e))
    }
}

/// A point in file axes in the view's Y-up frame: Z-up files turn (x, y, z) → (x, z, −y).
pub(super) fn y_up(p: [f64; 3], up: UpAxis) -> [f64; 3] {
    match up {
        UpAxis::Y => p,
        UpAxis::Z => [p[0], p[2], -p[1]],
    }
}

/// Straight strokes and squares gathered into one mesh, drawn as one shape: a frame with onion
/// skin and ten trails has thousands of them, and one line shape each (tessellated and
/// feathered one by one) cost more than the graph's whole frame.
#[derive(Default)]
pub(super) struct Strokes(pub(super) egui::Mesh);

impl Strokes {
    /// A segment from `a` to `b`, `width` points wide.
    pub(super) fn segment(&mut self, a: Pos2, b: Pos2, width: f32, color: Color32) {
        let d = b - a;
        let len = d.length();
        if !(len > 1e-3) {
            return;
        }
        let n = Vec2::new(-d.y, d.x) * (width / 2.0 / len);
        let i = self.0.vertices.len() as u32;
        for p in [a + n, a - n, b - n, b + n] {
            self.0.colored_vertex(p, color);
        }
        self.0.add_triangle(i, i + 1, i + 2);
        self.0.add_triangle(i, i + 2, i + 3);
    }

    /// A square of side `side` centred on `p`.
    pub(super) fn square(&mut self, p: Pos2, side: f32, color: Color32) {
        self.0.add_colored_rect(Rect::from_center_size(p, Vec2::splat(side)), color);
    }

    pub(super) fn paint(self, painter: &egui::Painter) {
        if !self.0.is_empty() {
            painter.add(egui::Shape::mesh(self.0));
        }
    }
}

/// Adds one pose's bones to `strokes`, returning each point's place on screen.
pub(super) fn draw_pose(strokes: &mut Strokes, rig: &Rig, pose: &Pose, view: &Projector, color: Color32, width: f32) -> Vec<Pos2> {
    let at: Vec<Pos2> = pose.points.iter().map(|&p| view.at(p).0).collect();
    // The index of each joint's own point among the points.
    let mut joint_point = Vec::with_capacity(rig.skeleton.joints.len());
    for (i, point) in rig.points().iter().enumerate() {
        if point.end_site {
            strokes.segment(at[joint_point[point.joint]], at[i], width, color);
        } else {
            joint_point.push(i);
            if let Some(parent) = rig.skeleton.joints[point.joint].parent {
                strokes.segment(at[joint_point[parent]], at[i], width, color);
            }
        }
    }
    at
}

/// A grid on the ground plane (y = 0 in the Y-up frame) around the body, at a round step.
pub(super) fn draw_grid(strokes: &mut Strokes, camera: &Camera, up: UpAxis, rect: Rect, size: f64) {
    let size = if size > 0.0 && size.is_finite() { size } else { 1.0 };
    let step = 10f64.powf((size / 4.0).log10().floor());
    let n = ((size * 1.5) / step).ceil().min(40.0) as i64;
    let (cx0, cz0) = ((camera.target[0] / step).round() * step, (camera.target[2] / step).round() * step);
    let view = camera.projector(up, rect);
    let file = |x: f64, z: f64| match up {
        UpAxis::Y => [x, 0.0, z],
        UpAxis::Z => [x, -z, 0.0],
    };
    for k in -n..=n {
        let o = k as f64 * step;
        let w = if k == 0 { 1.5 } else { 1.0 };
        let a = view.at(file(cx0 + o, cz0 - n as f64 * step)).0;
        let b = view.at(file(cx0 + o, cz0 + n as f64 * step)).0;
        strokes.segment(a, b, w, GRID);
        let a = view.at(file(cx0 - n as f64 * step, cz0 + o)).0;
        let b = view.at(file(cx0 + n as f64 * step, cz0 + o)).0;
        strokes.segment(a, b, w, GRID);
    }
}
