//! The time axis every plot of the editor shares (value graph, speed graph, dope sheet): in
//! seconds, or with View > Time in frames (`Ctrl+T`, as Blender's) in frames at the project's
//! fps, with grid lines on whole frames (1, 2 or 5 × 10ⁿ frames apart) so a mark never falls
//! between two frames.

use egui_plot::{GridInput, GridMark, Plot};

/// `plot`'s time axis: its label and, counted in frames, its marks.
pub fn time_axis<'a>(plot: Plot<'a>, frames: bool, fps: f64) -> Plot<'a> {
    if !frames || !(fps.is_finite() && fps > 0.0) {
        return plot.x_axis_label("time (s)");
    }
    plot.x_axis_label(format!("frame (at {fps} fps)"))
        .x_grid_spacer(move |input| frame_marks(input, fps))
        .x_axis_formatter(move |mark, _| format!("{:.0}", mark.value * fps + 0.0))
}

/// The smallest step of 1, 2 or 5 × 10ⁿ frames (n ≥ 0) at least `frames` long.
pub fn frame_step(frames: f64) -> f64 {
    let mut step = 1.0;
    loop {
        for m in [1.0, 2.0, 5.0] {
            if step * m >= frames {
                return step * m;
            }
        }
        step *= 10.0;
        if step > 1e12 {
            return step;
        }
    }
}

/// Grid marks on whole frames: the smallest step from egui's suggestion, then 5× and 10× it.
fn frame_marks(input: GridInput, fps: f64) -> Vec<GridMark> {
    let step = frame_step(input.base_step_size * fps);
    let (lo, hi) = (input.bounds.0 * fps, input.bounds.1 * fps);
    if !(lo.is_finite() && hi.is_finite()) || (hi - lo) / step > 10_000.0 {
        return Vec::new();
    }
    // By index, not by adding the step: far from 0 (times of 1e15 s) an added step is lost.
    let first = (lo / step).ceil();
    let count = ((hi / step).floor() - first).max(-1.0) as i64;
    let mut marks = Vec::with_capacity(count.max(0) as usize + 1);
    for i in 0..=count {
        let f = (first + i as f64) * step;
        let size = if (f / (step * 10.0)).fract() == 0.0 {
            step * 10.0
        } else if (f / (step * 5.0)).fract() == 0.0 {
            step * 5.0
        } else {
            step
        };
        marks.push(GridMark { value: f / fps, step_size: size / fps });
    }
    marks
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn steps_are_whole_frames_of_one_two_or_five() {
        assert_eq!(frame_step(0.3), 1.0);
        assert_eq!(frame_step(1.0), 1.0);
        assert_eq!(frame_step(1.5), 2.0);
        assert_eq!(frame_step(3.0), 5.0);
        assert_eq!(frame_step(7.0), 10.0);
        assert_eq!(frame_step(120.0), 200.0);
    }

    #[test]
    fn marks_fall_on_frames() {
        // 0..2 s at 120 fps, egui asking for a step of at least 0.03 s (3.6 frames: 5 frames).
        let marks = frame_marks(GridInput { bounds: (0.0, 2.0), base_step_size: 0.03 }, 120.0);
        assert_eq!(marks.len(), 49, "frames 0, 5, …, 240");
        for m in &marks {
            let frame = m.value * 120.0;
            assert!((frame - frame.round()).abs() < 1e-9 && (frame.round() as i64) % 5 == 0, "{frame}");
        }
        let thick = marks.iter().filter(|m| (m.step_size * 120.0 - 50.0).abs() < 1e-9).count();
        assert_eq!(thick, 5, "every 50 frames thickest: 0, 50, 100, 150, 200");
    }

    #[test]
    fn far_from_zero_and_before_it_the_marks_end() {
        // Times of 1e15 s: a step added to 1.2e17 frames is lost; by index the loop ends.
        let marks = frame_marks(GridInput { bounds: (1e15, 1e15 + 1.0), base_step_size: 0.1 }, 120.0);
        assert!(marks.len() <= 121, "{}", marks.len());
        let before = frame_marks(GridInput { bounds: (-1.0, -0.5), base_step_size: 0.05 }, 20.0);
        assert_eq!(before.iter().map(|m| (m.value * 20.0).round() as i64).collect::<Vec<_>>(), vec![-20, -19, -18, -17, -16, -15, -14, -13, -12, -11, -10]);
    }
}
