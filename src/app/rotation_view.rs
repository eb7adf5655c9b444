//! The rotation view for Quat tracks: the rotated frame (X red, Y green, Z blue, projected
//! isometrically) at the playhead, ghosted frames at sampled times laid out along time, and
//! the angular speed of Slerp, Nlerp and Squad over the same keys, with the key pairs that lie
//! in opposite hemispheres (dot < 0, where the shortest arc flips a key) marked.

use eframe::egui::{self, Color32};
use egui_plot::{Legend, Line, LineStyle, Plot, PlotPoints, Text, VLine};
use tangent::quat::{self, Quat};
use tangent::{Interpolation, SegmentCursor, Track, TrackCurve, TrackKind};

use super::state::AppState;

const GHOSTS: usize = 12;
const AXIS_COLORS: [Color32; 3] = [Color32::from_rgb(235, 80, 80), Color32::from_rgb(90, 210, 90), Color32::from_rgb(90, 140, 255)];
pub const HEMISPHERE_FLIP: Color32 = Color32::from_rgb(255, 90, 200);

/// The Quat track shown: the active one if it is a rotation, else the first.
pub fn rotation_track(state: &AppState) -> Option<usize> {
    let is_rot = |i: usize| state.project().tracks[i].kind == TrackKind::Quat;
    state.active_track.filter(|&i| is_rot(i)).or_else(|| (0..state.project().tracks.len()).find(|&i| is_rot(i)))
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

/// Angular speed in degrees per second at `n + 1` times over the keyed range.
pub fn angular_speed(curve: &TrackCurve, n: usize) -> Vec<[f64; 2]> {
    let (t0, t1) = curve.domain();
    let h = (t1 - t0) / n as f64;
    if !(h > 0.0) {
        return Vec::new();
    }
    let mut cursor = SegmentCursor::new();
    let mut a = [0.0; 4];
    let mut b = [0.0; 4];
    (0..n)
        .map(|i| {
            let (ta, tb) = (t0 + i as f64 * h, t0 + (i + 1) as f64 * h);
            curve.sample(&mut cursor, ta, &mut a);
            curve.sample(&mut cursor, tb, &mut b);
            [0.5 * (ta + tb), quat::angle_between(&a, &b).to_degrees() / h]
        })
        .collect()
}

/// Indices `i` where keys `i` and `i + 1` lie in opposite hemispheres.
pub fn hemisphere_flips(track: &Track) -> Vec<usize> {
    track.keys.windows(2).enumerate().filter(|(_, w)| w[0].value.iter().zip(&w[1].value).map(|(x, y)| x * y).sum::<f64>() < 0.0).map(|(i, _)| i).collect()
}

pub fn ui(ui: &mut egui::Ui, state: &mut AppState) {
    let Some(ti) = rotation_track(state) else {
        ui.label("The rotation view shows Quat tracks: add one (Tracks > + Add > Quat track).");
        return;
    };
    let track = &state.project().tracks[ti];
    let Some(Ok(curve)) = state.curve(ti) else { return };
    ui.label(format!("Rotation \"{}\" ({:?}): the frame at the playhead, and ghosts at {GHOSTS} times along the clip", track.name, track.interpolation));
    let (t0, t1) = curve.domain();
    let playhead = state.playhead;
    let h = ui.available_height();
    Plot::new("orientation").data_aspect(1.0).allow_drag(true).show_axes([false, false]).show_grid([false, false]).height(h * 0.5).show(ui, |plot_ui| {
        let mut q = [0.0; 4];
        let mut cursor = SegmentCursor::new();
        let width = 2.8;
        let span = (GHOSTS as f64 - 1.0).max(1.0);
        let draw_frame = |plot_ui: &mut egui_plot::PlotUi<'_>, q: &Quat, origin: [f64; 2], scale: f64, alpha: f32, w: f32| {
            for (axis, color) in AXIS_COLORS.iter().enumerate() {
                let mut e = [0.0; 3];
                e[axis] = scale;
                let p = project(rotate(q, e));
                plot_ui.line(Line::new("", PlotPoints::from(vec![origin, [origin[0] + p[0], origin[1] + p[1]]])).color(color.gamma_multiply(alpha)).width(w));
            }
        };
        for g in 0..GHOSTS {
            let t = t0 + (t1 - t0) * g as f64 / span;
            curve.sample(&mut cursor, t, &mut q);
            let x = -width * 0.5 * GHOSTS as f64 + width * g as f64;
            draw_frame(plot_ui, &q, [x, -3.2], 1.0, 0.45, 1.5);
            plot_ui.text(Text::new("", egui_plot::PlotPoint::new(x, -4.6), format!("{t:.2}s")).color(Color32::GRAY));
        }
        curve.sample(&mut cursor, playhead.clamp(t0, t1), &mut q);
        draw_frame(plot_ui, &q, [0.0, 1.5], 2.6, 1.0, 3.5);
        let e = quat::to_euler(&q, state.view.euler_order);
        plot_ui.text(Text::new(
            "",
            egui_plot::PlotPoint::new(0.0, 4.8),
            format!(
                "t = {playhead:.3} s   euler {:?} = ({:.1}, {:.1}, {:.1}) deg",
                state.view.euler_order,
                e[0].to_degrees(),
                e[1].to_degrees(),
                e[2].to_degrees()
            ),
        ));
    });
    // Angular speed of the three interpolations over the same keys.
    let modes = [Interpolation::Slerp, Interpolation::Nlerp, Interpolation::Squad];
    let colors = [Color32::from_rgb(120, 200, 255), Color32::from_rgb(255, 200, 90), Color32::from_rgb(200, 140, 255)];
    let flips = hemisphere_flips(&track);
    if !flips.is_empty() {
        ui.colored_label(
            HEMISPHERE_FLIP,
            format!("{} key pair(s) in opposite hemispheres (dot < 0): slerp and nlerp take the short way by flipping the second key", flips.len()),
        );
    }
    Plot::new("angular_speed").legend(Legend::default()).x_axis_label("time (s)").y_axis_label("angular speed (deg/s)").include_y(0.0).allow_drag(false).show(
        ui,
        |plot_ui| {
            for (mode, color) in modes.iter().zip(colors) {
                let mut t = track.clone();
                t.interpolation = *mode;
                t.pre_infinity = tangent::Infinity::Constant;
                t.post_infinity = tangent::Infinity::Constant;
                let Ok(c) = TrackCurve::new(&t) else { continue };
                let mut line = Line::new(format!("{mode:?}"), PlotPoints::from(angular_speed(&c, 600))).color(color).width(if *mode == track.interpolation {
                    2.5
                } else {
                    1.5
                });
                if *mode != track.interpolation {
                    line = line.style(LineStyle::dashed_dense());
                }
                plot_ui.line(line);
            }
            for i in &flips {
                let tm = 0.5 * (track.keys[*i].time + track.keys[*i + 1].time);
                plot_ui.vline(VLine::new("opposite hemispheres", tm).color(HEMISPHERE_FLIP).style(LineStyle::dotted_dense()));
            }
            plot_ui.vline(VLine::new("", playhead).color(Color32::from_rgb(240, 80, 60)));
        },
    );
}
