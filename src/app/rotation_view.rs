//! The rotation view for Quat and Euler tracks: the rotated frame (X red, Y green, Z blue,
//! projected isometrically) at the playhead, ghosted frames at sampled times laid out along
//! time, and the angular speed in degrees per second. For a Quat track, the speed of Slerp,
//! Nlerp and Squad over the same keys, with the key pairs that lie in opposite hemispheres
//! (dot < 0, where the shortest arc flips a key) marked; for an Euler track, the speed of the
//! rotation its angles make (`TrackCurve::rotation_at`, in the track's order), and its angles
//! at the playhead in degrees. The speeds and flips come from [`crate::analysis`], computed
//! once per change of the track.

use eframe::egui::{self, Color32};
use egui_plot::{Legend, Line, LineStyle, Plot, PlotPoints, Text, VLine};

use super::commands::AppCommand;
use super::panel::{Panel, PanelContext};
use super::style::PLAYHEAD;
use super::units::shown;
use crate::analysis::{angular_speed, curve_with_interpolation, hemisphere_flips};
use crate::quat::{self, Quat};
use crate::{Interpolation, SegmentCursor, TrackCurve, TrackKind};

const GHOSTS: usize = 12;
/// Steps of the angular speed plot.
const SPEED_STEPS: usize = 600;
const AXIS_COLORS: [Color32; 3] = [Color32::from_rgb(235, 80, 80), Color32::from_rgb(90, 210, 90), Color32::from_rgb(90, 140, 255)];
pub const HEMISPHERE_FLIP: Color32 = Color32::from_rgb(255, 90, 200);
const MODES: [(Interpolation, Color32); 3] = [
    (Interpolation::Slerp, Color32::from_rgb(120, 200, 255)),
    (Interpolation::Nlerp, Color32::from_rgb(255, 200, 90)),
    (Interpolation::Squad, Color32::from_rgb(200, 140, 255)),
];

/// Colour of an Euler track's own angular speed.
const EULER_SPEED: Color32 = Color32::from_rgb(120, 200, 255);

/// One line of the angular speed plot: its name, colour, whether it is the track's own mode
/// (drawn solid), and degrees per second against time.
struct SpeedLine {
    name: String,
    color: Color32,
    own: bool,
    speed: Vec<[f64; 2]>,
}

/// What the angular speed plot shows for one track state.
struct Analysis {
    /// `(track, curve stamp)` it was computed for.
    key: (usize, u64),
    /// A Quat track: each of [`MODES`] (empty where the mode does not compile); an Euler
    /// track: its own curve's.
    speeds: Vec<SpeedLine>,
    /// Quaternion key pairs in opposite hemispheres (none for Euler tracks).
    flips: Vec<usize>,
}

/// The rotation view and its cached analysis.
#[derive(Default)]
pub struct RotationView {
    analysis: Option<Analysis>,
}

/// The Quat or Euler track shown: the active one if it is a rotation, else the first.
pub fn rotation_track(cx: &PanelContext<'_>) -> Option<usize> {
    let tracks = &cx.project().tracks;
    let is_rot = |i: usize| tracks[i].kind.is_rotation();
    cx.doc.active_track.filter(|&i| is_rot(i)).or_else(|| (0..tracks.len()).find(|&i| is_rot(i)))
}

/// Isometric projection of a 3D vector onto the view plane.
fn project(v: [f64; 3]) -> [f64; 2] {
    let s = std::f64::consts::FRAC_1_SQRT_2;
    let k = 1.0 / 6f64.sqrt();
    [(v[0] - v[1]) * s, (2.0 * v[2] - v[0] - v[1]) * k]
}

fn rotate(q: &Quat, v: [f64; 3]) -> [f64; 3] {
    let m = quat::to_matrix(q);
    [0, 1, 2].map(|r| m[r][0] * v[0] + m[r][1] * v[1] + m[r][2] * v[2])
}

fn draw_frame(plot_ui: &mut egui_plot::PlotUi<'_>, q: &Quat, origin: [f64; 2], scale: f64, alpha: f32, w: f32) {
    for (axis, color) in AXIS_COLORS.iter().enumerate() {
        let mut e = [0.0; 3];
        e[axis] = scale;
        let p = project(rotate(q, e));
        plot_ui.line(Line::new("", PlotPoints::from(vec![origin, [origin[0] + p[0], origin[1] + p[1]]])).color(color.gamma_multiply(alpha)).width(w));
    }
}

impl RotationView {
    /// The angular speed lines last drawn (degrees per second against time).
    #[cfg(test)]
    pub fn speeds(&self) -> Vec<Vec<[f64; 2]>> {
        self.analysis.iter().flat_map(|a| a.speeds.iter().map(|l| l.speed.clone())).collect()
    }
}

/// Angular speed of `curve` in degrees per second.
fn degrees_per_second(curve: &TrackCurve) -> Vec<[f64; 2]> {
    angular_speed(curve, SPEED_STEPS).into_iter().map(|[t, w]| [t, w.to_degrees()]).collect()
}

impl RotationView {
    fn analysis(&mut self, cx: &PanelContext<'_>, ti: usize, curve: &TrackCurve) -> &Analysis {
        let key = (ti, cx.doc.curve_stamp(ti).unwrap_or(0));
        if self.analysis.as_ref().is_none_or(|a| a.key != key) {
            let track = &cx.project().tracks[ti];
            self.analysis = Some(if track.kind == TrackKind::Euler {
                let name = format!("{:?} (Euler {})", track.interpolation, track.order.name());
                Analysis { key, speeds: vec![SpeedLine { name, color: EULER_SPEED, own: true, speed: degrees_per_second(curve) }], flips: Vec::new() }
            } else {
                let speeds = MODES
                    .iter()
                    .map(|(mode, color)| SpeedLine {
                        name: format!("{mode:?}"),
                        color: *color,
                        own: *mode == track.interpolation,
                        speed: curve_with_interpolation(track, *mode).map_or_else(|_| Vec::new(), |c| degrees_per_second(&c)),
                    })
                    .collect();
                Analysis { key, speeds, flips: hemisphere_flips(track) }
            });
        }
        self.analysis.as_ref().expect("just computed")
    }
}

impl Panel for RotationView {
    fn ui(&mut self, ui: &mut egui::Ui, cx: &PanelContext<'_>, _out: &mut Vec<AppCommand>) {
        let Some(ti) = rotation_track(cx) else {
            ui.label("The rotation view shows Quat and Euler tracks: add one (Tracks > + Add > Quat track or Euler track).");
            return;
        };
        let track = &cx.project().tracks[ti];
        let Some(Ok(curve)) = cx.doc.curve(ti) else { return };
        ui.label(format!("Rotation \"{}\" ({:?}): the frame at the playhead, and ghosts at {GHOSTS} times along the clip", track.name, track.interpolation));
        let h = ui.available_height();
        Plot::new("orientation").data_aspect(1.0).allow_drag(true).show_axes([false, false]).show_grid([false, false]).height(h * 0.5).show(ui, |plot_ui| {
            orientation(plot_ui, cx, curve);
        });
        let analysis = self.analysis(cx, ti, curve);
        if !analysis.flips.is_empty() {
            ui.colored_label(
                HEMISPHERE_FLIP,
                format!(
                    "{} key pair(s) in opposite hemispheres (dot < 0): slerp and nlerp take the short way by flipping the second key",
                    analysis.flips.len()
                ),
            );
        }
        let plot = Plot::new("angular_speed").legend(Legend::default()).x_axis_label("time (s)").y_axis_label("angular speed (deg/s)");
        plot.include_y(0.0).allow_drag(false).show(ui, |plot_ui| {
            for SpeedLine { name, color, own, speed } in &analysis.speeds {
                let mut line = Line::new(name.clone(), PlotPoints::from(speed.clone())).color(*color).width(if *own { 2.5 } else { 1.5 });
                if !own {
                    line = line.style(LineStyle::dashed_dense());
                }
                plot_ui.line(line);
            }
            for i in &analysis.flips {
                let tm = 0.5 * (track.keys.time(*i) + track.keys.time(*i + 1));
                plot_ui.vline(VLine::new("opposite hemispheres", tm).color(HEMISPHERE_FLIP).style(LineStyle::dotted_dense()));
            }
            plot_ui.vline(VLine::new("", cx.playhead()).color(PLAYHEAD));
        });
    }
}

/// The frame at the playhead, large, over ghosts at [`GHOSTS`] times along the clip. The
/// readout: a Quat track's rotation as Euler angles in the view's order, an Euler track's own
/// angles (as keyed, not wrapped) in its order.
fn orientation(plot_ui: &mut egui_plot::PlotUi<'_>, cx: &PanelContext<'_>, curve: &TrackCurve) {
    let (t0, t1) = curve.domain();
    let playhead = cx.playhead();
    let mut scratch = vec![0.0; curve.dim()];
    let mut cursor = SegmentCursor::new();
    let mut at = |t: f64, scratch: &mut Vec<f64>| curve.rotation_at(&mut cursor, t, scratch).unwrap_or(quat::IDENTITY);
    let width = 2.8;
    let span = (GHOSTS as f64 - 1.0).max(1.0);
    for g in 0..GHOSTS {
        let t = t0 + (t1 - t0) * g as f64 / span;
        let q = at(t, &mut scratch);
        let x = -width * 0.5 * GHOSTS as f64 + width * g as f64;
        draw_frame(plot_ui, &q, [x, -3.2], 1.0, 0.45, 1.5);
        plot_ui.text(Text::new("", egui_plot::PlotPoint::new(x, -4.6), format!("{t:.2}s")).color(Color32::GRAY));
    }
    let q = at(playhead.clamp(t0, t1), &mut scratch);
    draw_frame(plot_ui, &q, [0.0, 1.5], 2.6, 1.0, 3.5);
    let text = if curve.kind() == TrackKind::Euler {
        let e = scratch.iter().map(|&a| shown(TrackKind::Euler, a)).collect::<Vec<_>>();
        format!("t = {playhead:.3} s   angles {} = ({:.1}, {:.1}, {:.1}) deg", curve.order(), e[0], e[1], e[2])
    } else {
        let order = cx.view.euler_order;
        let e = crate::euler::from_quat(&q, order).map(f64::to_degrees);
        format!("t = {playhead:.3} s   euler {order} = ({:.1}, {:.1}, {:.1}) deg", e[0], e[1], e[2])
    };
    plot_ui.text(Text::new("", egui_plot::PlotPoint::new(0.0, 4.8), text));
}
