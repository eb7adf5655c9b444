//! CSV export: a `time` column, then one column per component (`track.x`, …), one row per
//! frame over the union of the tracks' key ranges.

use std::io::Write;

use super::{Form, Prepared};
use crate::bake::Fps;
use crate::curve::TrackCurve;
use crate::model::Project;
use crate::search::{Located, SegmentCursor};

/// The CSV text. Baked tracks are sampled from what was baked (played linearly); the others
/// from the curve.
pub(super) fn csv(project: &Project, tracks: &[Prepared], fps: Fps) -> Vec<u8> {
    let (t0, t1) = project.time_range().unwrap_or((0.0, 0.0));
    let mut out = Vec::new();
    let mut header = vec!["time".to_owned()];
    let curves: Vec<(TrackCurve, &Prepared)> =
        tracks.iter().filter_map(|p| project.track(&p.name).and_then(|t| TrackCurve::new(t).ok()).map(|c| (c, p))).collect();
    for (c, p) in &curves {
        for name in c.kind().component_names() {
            header.push(format!("{}.{name}", p.name));
        }
    }
    let _ = writeln!(out, "{}", header.join(","));
    let frames = fps.frames(t0, t1);
    // Per track its values at every frame: the curve in one pass, or its baked keys.
    let columns: Vec<Vec<f64>> = curves
        .iter()
        .map(|(c, p)| {
            let mut values = vec![0.0; frames.len() * c.dim()];
            if p.form == Form::Baked && !p.times.is_empty() {
                let mut cursor = SegmentCursor::new();
                for (v, &t) in values.chunks_exact_mut(c.dim()).zip(&frames) {
                    baked_value(p, c.dim(), &mut cursor, t, v);
                }
            } else {
                c.sample_many(&frames, &mut values);
            }
            values
        })
        .collect();
    for (i, t) in frames.iter().enumerate() {
        let _ = write!(out, "{t:?}");
        for ((c, _), column) in curves.iter().zip(&columns) {
            for v in &column[i * c.dim()..(i + 1) * c.dim()] {
                let _ = write!(out, ",{v:?}");
            }
        }
        let _ = writeln!(out);
    }
    out
}

/// Baked keys played linearly (component-wise), held beyond the ends.
fn baked_value(p: &Prepared, dim: usize, cursor: &mut SegmentCursor, t: f64, out: &mut [f64]) {
    let key = |i: usize| &p.values[i * dim..(i + 1) * dim];
    match cursor.locate(&p.times, t) {
        Located::Before => out.copy_from_slice(key(0)),
        Located::After => out.copy_from_slice(key(p.times.len() - 1)),
        Located::Inside(i) => {
            let (ta, tb) = (p.times[i], p.times[i + 1]);
            let w = (t - ta) / (tb - ta);
            for (j, v) in out.iter_mut().enumerate() {
                *v = key(i)[j] + (key(i + 1)[j] - key(i)[j]) * w;
            }
        }
    }
}
