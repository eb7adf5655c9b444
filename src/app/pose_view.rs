//! The pose view (issue 42): the project's skeleton at the playhead as a figure — bones as
//! lines, joints as dots, end sites as small squares — seen through an orbit camera
//! (orthographic: drag to turn, Shift- or middle-drag to pan, scroll to zoom, Home to frame;
//! Front, Side and Top presets) over a ground grid. It plays with the transport. A click on a
//! joint selects it (its tracks become the active and shown tracks of the graph:
//! [`AppCommand::SelectJoints`]), Shift-click adds or removes it, hovering names it. Onion
//! skin draws ghost poses N steps before (blue) and after (green) the playhead; each selected
//! joint draws its world-space trail over a window around the playhead, a dot per frame.
//!
//! The poses come from the engine's forward kinematics ([`crate::body`]) on the document's
//! compiled curves; the rig is bound once per document revision, and a trail keeps the
//! frames it has computed while the window slides (playback computes one new frame per
//! frame, not the whole window). While Smooth, Scale time or Simplify previews, the figure is
//! the previewed body and the document's pose is drawn under it as a wide dim ghost.

use std::collections::BTreeSet;
use std::sync::Arc;

use eframe::egui::{self, Color32, Pos2, Rect, Sense, Vec2};

use super::body::JointSelection;
use super::commands::AppCommand;
use super::panel::{Panel, PanelContext};
use super::pose_draw::{draw_grid, draw_pose, y_up, Camera, Projector, Strokes, PRESETS};
use super::settings::{PoseSettings, UpAxis};
use crate::body::{Animated, Pose, Rig};
use crate::TrackCurve;

const BONE: Color32 = Color32::from_rgb(210, 210, 220);
const JOINT: Color32 = Color32::from_rgb(240, 200, 90);
const SELECTED: Color32 = Color32::from_rgb(255, 120, 40);
const HOVERED: Color32 = Color32::WHITE;
const END_SITE: Color32 = Color32::from_rgb(150, 200, 255);
const BEFORE: Color32 = Color32::from_rgb(90, 140, 255);
const AFTER: Color32 = Color32::from_rgb(90, 220, 120);
const TRAIL: Color32 = Color32::from_rgb(255, 160, 60);
/// The document's pose under a tool's preview.
const ORIGINAL: Color32 = Color32::from_rgba_premultiplied(120, 60, 60, 140);
/// How near (points) the pointer must be to pick a joint.
const PICK_RADIUS: f32 = 9.0;

/// The rig bound for one document revision (or why there is no body).
struct Bound {
    key: (u64, u64),
    rig: Result<Arc<Rig>, String>,
}

/// The trail of the selected joints: their world positions per frame index, kept while the
/// document, the joints and the fps stay the same.
#[derive(Default)]
struct Trail {
    key: Option<((u64, u64), Vec<usize>, u64)>,
    /// The first frame held, and per frame from it on the joints' positions in order (one
    /// contiguous run: the window slides by a frame or two while playing).
    first: i64,
    points: std::collections::VecDeque<[f64; 3]>,
}

/// The pose view and its caches.
#[derive(Default)]
pub struct PoseView {
    pub camera: Camera,
    bound: Option<Bound>,
    trail: Trail,
    pose: Pose,
    /// Frame the body at the next draw (Home, a new document).
    pub frame: bool,
    /// The document the view last framed.
    framed_for: Option<u64>,
    /// The point under the pointer (index into [`Rig::points`]).
    pub hovered: Option<usize>,
    /// Where each point was last drawn (for tests and picking).
    pub drawn: Vec<Pos2>,
    /// Where the drag in progress began, and how far (points) it has moved.
    pressed: Option<Pos2>,
    dragged: f32,
    /// Where the root was (Y-up frame) when the camera last followed it.
    followed: Option<[f64; 3]>,
    /// Per selected joint, how many frames of its trail to step at a time (from its length on
    /// screen in the frame before).
    strides: Vec<usize>,
    /// The trails' mesh as last built.
    trail_mesh: Option<TrailMesh>,
}

/// Frames a trail's window moves by at a time (a quarter of a second at 120 fps): between
/// moves its mesh is drawn again as it was.
const TRAIL_BLOCK: i64 = 30;

/// What the trails' mesh was built for.
#[derive(Clone, Debug, PartialEq)]
struct TrailKey {
    document: (u64, u64),
    joints: Vec<usize>,
    block: i64,
    seconds: u64,
    camera: (u64, u64, u64),
    up: UpAxis,
    center: (u32, u32),
}

/// The trails drawn once for a [`TrailKey`], and the camera target they were drawn with.
struct TrailMesh {
    key: TrailKey,
    target: [f64; 3],
    mesh: std::sync::Arc<egui::Mesh>,
}

/// Each joint's compiled curves from the document, or from `replaced` (a tool's preview)
/// where it has the track; a track that does not compile names its joint.
fn animate<'c>(rig: &'c Rig, cx: &'c PanelContext<'_>, replaced: &[(usize, &'c TrackCurve)]) -> Result<Animated<'c>, String> {
    rig.animate(|i| match (replaced.iter().find(|r| r.0 == i), cx.doc.curve(i)) {
        (Some(&(_, c)), _) | (None, Some(Ok(c))) => Ok(c),
        (None, Some(Err(e))) => Err(e.to_string()),
        (None, None) => Err("no such track".to_owned()),
    })
    .map_err(|e| e.to_string())
}

/// The curves the open tools preview (Smooth, Scale time, Simplify…): the pose view draws the
/// body with them, over the document's pose as a ghost. With several tools open, the first
/// tool's curve of a track is taken.
fn previewed<'c>(cx: &'c PanelContext<'_>) -> Vec<(usize, &'c TrackCurve)> {
    cx.ui.previews.iter().flat_map(super::tool::ToolMade::new_curves).collect()
}

impl PoseView {
    /// The rig of the document as it is now (bound again after any change).
    fn rig(&mut self, cx: &PanelContext<'_>) -> Result<Arc<Rig>, String> {
        let basis = cx.doc.basis();
        let key = (basis.document, basis.revision);
        if self.bound.as_ref().is_none_or(|b| b.key != key) {
            let rig = Rig::new(cx.project()).map(Arc::new).map_err(|e| e.to_string());
            self.bound = Some(Bound { key, rig });
        }
        self.bound.as_ref().map_or_else(|| Err(String::new()), |b| b.rig.clone())
    }

    /// The settings bar: presets, up axis, onion skin and trail.
    fn toolbar(&mut self, ui: &mut egui::Ui, cx: &PanelContext<'_>, out: &mut Vec<AppCommand>) {
        let mut s = cx.view.pose.clone();
        ui.horizontal_wrapped(|ui| {
            for (name, yaw, pitch, tip) in PRESETS {
                if ui.button(name).on_hover_text(tip).clicked() {
                    self.camera.yaw = yaw;
                    self.camera.pitch = pitch;
                }
            }
            if ui.button("Frame").on_hover_text("Fit the body in the view (Home)").clicked() {
                self.frame = true;
            }
            ui.separator();
            let combo = egui::ComboBox::from_id_salt("pose-up")
                .selected_text(match s.up {
                    UpAxis::Y => "Y up",
                    UpAxis::Z => "Z up",
                })
                .show_ui(ui, |ui| {
                    ui.selectable_value(&mut s.up, UpAxis::Y, "Y up").on_hover_text("BVH, glTF: Y is up");
                    ui.selectable_value(&mut s.up, UpAxis::Z, "Z up").on_hover_text("Blender, many FBX files: Z is up");
                });
            combo.response.accessible_name("up axis").on_hover_text("Which file axis points up in the view");
            ui.checkbox(&mut s.grid, "Grid").on_hover_text("The ground plane's grid");
            ui.checkbox(&mut s.follow, "Follow").on_hover_text("Keep the root in the middle of the view as the take travels (the camera moves with it)");
            ui.separator();
            ui.label("Onion").on_hover_text("Ghost poses before (blue) and after (green) the playhead");
            ui.add(egui::DragValue::new(&mut s.onion).range(0..=10).suffix(" each side")).on_hover_text("How many ghost poses on each side (0: none)");
            ui.add(egui::DragValue::new(&mut s.onion_step).range(1..=120).prefix("every ").suffix(" frames")).on_hover_text("Frames between ghost poses");
            ui.separator();
            ui.label("Trail").on_hover_text("The world-space path of each selected joint, a dot per frame");
            ui.add(egui::DragValue::new(&mut s.trail_seconds).range(0.0..=30.0).speed(0.05).suffix(" s"))
                .on_hover_text("The trail's window, centred on the playhead (0: no trail)");
        });
        if s != cx.view.pose {
            out.push(cx.view_change(|v| v.pose = s));
        }
    }

    /// Brings the trail of `joints` to the window around `t` (one position per frame), keeping
    /// what it already holds; returns the frames it holds (positions per frame, `joints.len()`
    /// at a time, frame-major).
    fn trail(&mut self, rig: &Rig, cx: &PanelContext<'_>, joints: &[usize], t: f64) -> &[[f64; 3]] {
        let fps = cx.project().fps;
        let half = cx.view.pose.trail_seconds / 2.0;
        if joints.is_empty() || half <= 0.0 || !(fps > 0.0) {
            return &[];
        }
        let n = joints.len();
        let basis = cx.doc.basis();
        let key = ((basis.document, basis.revision), joints.to_vec(), fps.to_bits());
        // The window snapped outwards to whole blocks of frames: it moves a block at a time,
        // so the trails' mesh is rebuilt once a block while playing ([`TrailMesh`]).
        let first = (((t - half) * fps).floor() as i64).div_euclid(TRAIL_BLOCK) * TRAIL_BLOCK;
        let last = ((((t + half) * fps).ceil() as i64 + TRAIL_BLOCK - 1).div_euclid(TRAIL_BLOCK) * TRAIL_BLOCK).min(first + 100_000);
        let held = self.trail.points.len() as i64 / n as i64;
        let (old_first, old_last) = (self.trail.first, self.trail.first + held - 1);
        if self.trail.key.as_ref() != Some(&key) || held == 0 || last < old_first || first > old_last {
            self.trail = Trail { key: Some(key), first, points: std::collections::VecDeque::new() };
        } else {
            // Drop what left the window, on both sides.
            for _ in 0..((first - old_first).max(0) * n as i64) {
                self.trail.points.pop_front();
            }
            for _ in 0..((old_last - last).max(0) * n as i64) {
                self.trail.points.pop_back();
            }
            self.trail.first = self.trail.first.max(first);
        }
        let Ok(mut animated) = animate(rig, cx, &[]) else { return &[] };
        let mut pose = Pose::default();
        // Frames before what is held (the window moved back), newest first, then after it.
        let held = self.trail.points.len() as i64 / n as i64;
        let (have_first, have_last) = if held == 0 { (first, first - 1) } else { (self.trail.first, self.trail.first + held - 1) };
        for f in (first..have_first).rev() {
            if animated.pose_at(f as f64 / fps, &mut pose).is_err() {
                break;
            }
            for &j in joints.iter().rev() {
                self.trail.points.push_front(pose.world[j].p);
            }
            self.trail.first = f;
        }
        if held == 0 {
            self.trail.first = first;
        }
        for f in (have_last + 1)..=last {
            if animated.pose_at(f as f64 / fps, &mut pose).is_err() {
                break;
            }
            self.trail.points.extend(joints.iter().map(|&j| pose.world[j].p));
        }
        self.trail.points.make_contiguous()
    }
}

impl Panel for PoseView {
    fn ui(&mut self, ui: &mut egui::Ui, cx: &PanelContext<'_>, out: &mut Vec<AppCommand>) {
        self.toolbar(ui, cx, out);
        let rig = match self.rig(cx) {
            Ok(rig) => rig,
            Err(e) => {
                ui.add_space(20.0);
                ui.vertical_centered(|ui| ui.label(format!("No body to show: {e}.")));
                return;
            }
        };
        let (rect, response) = ui.allocate_exact_size(ui.available_size(), Sense::click_and_drag());
        let painter = ui.painter_at(rect);
        painter.rect_filled(rect, 0.0, Color32::from_gray(24));
        let settings = &cx.view.pose;
        let up = settings.up;
        let t = cx.playhead();
        let replaced = previewed(cx);
        let mut animated = match animate(&rig, cx, &replaced) {
            Ok(a) => a,
            Err(e) => {
                painter.text(rect.center(), egui::Align2::CENTER_CENTER, format!("No body to show: {e}"), egui::FontId::proportional(14.0), Color32::LIGHT_RED);
                return;
            }
        };
        let mut pose = std::mem::take(&mut self.pose);
        if let Err(e) = animated.pose_at(t, &mut pose) {
            painter.text(rect.center(), egui::Align2::CENTER_CENTER, format!("{e}"), egui::FontId::proportional(14.0), Color32::LIGHT_RED);
            self.pose = pose;
            return;
        }
        let document = cx.doc.basis().document;
        if self.frame || self.framed_for != Some(document) {
            self.camera.frame(&pose.points, up, rect);
            self.followed = None;
            self.frame = false;
            self.framed_for = Some(document);
        }
        if settings.follow {
            // The camera keeps its offset from the first root as it travels.
            if let Some(root) = pose.points.first() {
                let now = y_up(*root, up);
                if let Some(last) = self.followed {
                    self.camera.target = [0, 1, 2].map(|a| self.camera.target[a] + now[a] - last[a]);
                }
                self.followed = Some(now);
            }
        } else {
            self.followed = None;
        }
        self.navigate(&response, ui);
        let view = self.camera.projector(up, rect);
        // Everything below the joints' dots is one mesh, in drawing order.
        let mut strokes = Strokes::default();
        if settings.grid {
            draw_grid(&mut strokes, &self.camera, up, rect, rig.size());
        }
        // Onion skin: ghosts fading with their distance from the playhead.
        let fps = cx.project().fps;
        let mut ghost = Pose::default();
        for k in 1..=settings.onion {
            let dt = (k * settings.onion_step) as f64 / fps;
            let fade = 0.6 * (1.0 - (k - 1) as f32 / settings.onion as f32) + 0.15;
            for (sign, color) in [(-1.0, BEFORE), (1.0, AFTER)] {
                if animated.pose_at(t + sign * dt, &mut ghost).is_ok() {
                    draw_pose(&mut strokes, &rig, &ghost, &view, color.gamma_multiply(fade), 1.5);
                }
            }
        }
        let selected: Vec<usize> = cx.ui.joints.joints.iter().copied().filter(|&j| j < rig.skeleton.joints.len()).collect();
        // The trails' mesh, kept while the window's blocks, the joints, the document and the
        // camera's turn and zoom stay (a Follow camera only moves the picture).
        strokes.paint(&painter);
        let mut strokes = Strokes::default();
        let fps = cx.project().fps;
        let block = if fps > 0.0 { (((t - settings.trail_seconds / 2.0) * fps).floor() as i64).div_euclid(TRAIL_BLOCK) } else { 0 };
        let basis = cx.doc.basis();
        let key = TrailKey {
            document: (basis.document, basis.revision),
            joints: selected.clone(),
            block,
            seconds: settings.trail_seconds.to_bits(),
            camera: (self.camera.yaw.to_bits(), self.camera.pitch.to_bits(), self.camera.zoom.to_bits()),
            up,
            center: (rect.center().x.to_bits(), rect.center().y.to_bits()),
        };
        if let Some(kept) = self.trail_mesh.as_ref().filter(|m| m.key == key) {
            // Moved by how far the camera's target moved since it was built.
            let [r, u, _] = self.camera.basis();
            let d = [0, 1, 2].map(|a| self.camera.target[a] - kept.target[a]);
            let dot = |v: [f64; 3]| v[0] * d[0] + v[1] * d[1] + v[2] * d[2];
            let mut shape = egui::Shape::Mesh(kept.mesh.clone());
            shape.translate(Vec2::new((-self.camera.zoom * dot(r)) as f32, (self.camera.zoom * dot(u)) as f32));
            painter.add(shape);
        } else {
            self.trail_mesh = None;
            let mut trails = Strokes::default();
            self.draw_trails(&mut trails, &rig, cx, &selected, t, &view);
            if !trails.0.is_empty() {
                let mesh = std::sync::Arc::new(trails.0);
                painter.add(egui::Shape::Mesh(mesh.clone()));
                self.trail_mesh = Some(TrailMesh { key, target: self.camera.target, mesh });
            }
        }
        // A tool's preview: the document's pose as a ghost under the previewed one.
        if !replaced.is_empty() {
            if let Ok(mut original) = animate(&rig, cx, &[]) {
                let mut ghost = Pose::default();
                if original.pose_at(t, &mut ghost).is_ok() {
                    draw_pose(&mut strokes, &rig, &ghost, &view, ORIGINAL, 4.0);
                }
            }
        }
        let at = draw_pose(&mut strokes, &rig, &pose, &view, BONE, 2.5);
        strokes.paint(&painter);
        // Joints nearer the eye drawn last.
        let mut order: Vec<usize> = (0..at.len()).collect();
        let depth: Vec<f64> = pose.points.iter().map(|&p| view.at(p).1).collect();
        order.sort_by(|&a, &b| depth[a].total_cmp(&depth[b]));
        let hovered = response.hover_pos().and_then(|p| nearest(&at, p));
        for i in order {
            let point = &rig.points()[i];
            let chosen = cx.ui.joints.joints.contains(&point.joint);
            let color = if hovered == Some(i) {
                HOVERED
            } else if chosen {
                SELECTED
            } else if point.end_site {
                END_SITE
            } else {
                JOINT
            };
            if point.end_site {
                painter.rect_filled(Rect::from_center_size(at[i], Vec2::splat(5.0)), 0.0, color);
            } else {
                painter.circle_filled(at[i], if chosen { 5.5 } else { 4.0 }, color);
            }
        }
        if let Some(i) = hovered {
            let p = pose.points[i];
            let text = format!("{}\n({:.4}, {:.4}, {:.4}) file units", rig.points()[i].name, p[0], p[1], p[2]);
            painter.text(at[i] + Vec2::new(10.0, -10.0), egui::Align2::LEFT_BOTTOM, text, egui::FontId::proportional(13.0), Color32::WHITE);
        }
        painter.text(
            rect.left_bottom() + Vec2::new(8.0, -8.0),
            egui::Align2::LEFT_BOTTOM,
            format!("{t:.3} s · {} joints · size {:.4} file units", rig.skeleton.joints.len(), rig.size()),
            egui::FontId::proportional(12.0),
            Color32::GRAY,
        );
        // A click, or a press released where it began (held longer than a click: a drag of
        // nothing), picks.
        let still = response.drag_stopped() && self.dragged < 4.0;
        if response.clicked() || still {
            let shift = ui.input(|i| i.modifiers.shift);
            let at_click = if still { self.pressed } else { response.interact_pointer_pos().or_else(|| response.hover_pos()) };
            let picked = at_click.and_then(|p| nearest(&at, p)).map(|i| rig.points()[i].joint);
            let mut joints: BTreeSet<usize> = if shift { cx.ui.joints.joints.clone() } else { BTreeSet::new() };
            if let Some(j) = picked {
                if shift && joints.contains(&j) {
                    joints.remove(&j);
                } else {
                    joints.insert(j);
                }
            }
            let tracks = joints.iter().flat_map(|&j| rig.tracks[j].iter()).collect();
            out.push(AppCommand::SelectJoints(JointSelection {
                joints,
                tracks,
                primary: picked.and_then(|j| rig.tracks[j].rotation.or(rig.tracks[j].translation)),
            }));
        }
        self.hovered = hovered;
        self.drawn = at;
        self.pose = pose;
    }
}

impl PoseView {
    /// Each selected joint's trail into `strokes`: thinned on screen (a segment of the line at
    /// least 2 points long, a frame's dot at least 3 points from the last dot; denser frames
    /// read as the line), frames visited `stride` at a time, the stride set from the trail's
    /// length on screen the last time so that visited frames are about 3 points apart.
    fn draw_trails(&mut self, strokes: &mut Strokes, rig: &Rig, cx: &PanelContext<'_>, selected: &[usize], t: f64, view: &Projector) {
        let mut strides = std::mem::take(&mut self.strides);
        strides.resize(selected.len(), 1);
        let held = self.trail(rig, cx, selected, t);
        for (k, stride) in strides.iter_mut().enumerate() {
            // Thinned on screen: a segment of the line at least 2 points long, a frame's dot at
            // least 3 points from the last dot (denser frames read as the line). Frames are
            // visited `stride` at a time, the stride set from the trail's length on screen in
            // the frame before so that consecutive visited frames are about 3 points apart.
            let (mut last, mut last_dot): (Option<Pos2>, Option<Pos2>) = (None, None);
            let (mut length, mut frames) = (0.0f32, 0usize);
            for &p in held.iter().skip(k).step_by(selected.len() * *stride) {
                let q = view.at(p).0;
                frames += 1;
                match last {
                    None => last = Some(q),
                    Some(l) if l.distance(q) >= 2.0 => {
                        length += l.distance(q);
                        strokes.segment(l, q, 1.5, TRAIL.gamma_multiply(0.7));
                        last = Some(q);
                    }
                    Some(_) => {}
                }
                if last_dot.is_none_or(|l| l.distance(q) >= 3.0) {
                    strokes.square(q, 3.0, TRAIL);
                    last_dot = Some(q);
                }
            }
            let all = frames * *stride;
            *stride = if length > 0.0 { ((3.0 * all as f32 / length) as usize).clamp(1, (all / 8).max(1)) } else { 1 };
        }
        self.strides = strides;
    }

    /// Drag turns (Shift or the middle button pans), scroll zooms about the centre.
    fn navigate(&mut self, response: &egui::Response, ui: &egui::Ui) {
        if response.drag_started() {
            self.pressed = response.interact_pointer_pos();
            self.dragged = 0.0;
        }
        if response.dragged() {
            self.dragged += response.drag_delta().length();
            let d = response.drag_delta();
            let pan = ui.input(|i| i.modifiers.shift) || response.dragged_by(egui::PointerButton::Middle);
            if pan {
                let [r, u, _] = self.camera.basis();
                let (dx, dy) = (-f64::from(d.x) / self.camera.zoom, f64::from(d.y) / self.camera.zoom);
                self.camera.target = [0, 1, 2].map(|a| self.camera.target[a] + r[a] * dx + u[a] * dy);
            } else {
                self.camera.yaw -= f64::from(d.x) * 0.01;
                self.camera.pitch = (self.camera.pitch + f64::from(d.y) * 0.01).clamp(-1.5707, 1.5707);
            }
        }
        if response.hovered() {
            let scroll = ui.input(|i| i.smooth_scroll_delta.y);
            if scroll != 0.0 {
                self.camera.zoom *= f64::from((scroll * 0.002).exp());
            }
        }
    }
}

/// The point drawn nearest `p`, if within [`PICK_RADIUS`].
fn nearest(at: &[Pos2], p: Pos2) -> Option<usize> {
    at.iter().enumerate().map(|(i, q)| (i, q.distance(p))).filter(|(_, d)| *d <= PICK_RADIUS).min_by(|a, b| a.1.total_cmp(&b.1)).map(|(i, _)| i)
}

impl Default for PoseSettings {
    fn default() -> Self {
        Self { up: UpAxis::Y, grid: true, follow: true, onion: 0, onion_step: 5, trail_seconds: 0.0 }
    }
}
