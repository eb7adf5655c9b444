//! Bezier forms in the exports: three.js r187 `InterpolateBezier` tracks (absolute `[t, v]`
//! control points per key and component in `settings.inTangents` / `outTangents`) and glTF
//! CUBICSPLINE for Bezier tracks whose handles sit at a third of each segment; and adaptive
//! export's fitted Bezier keys ([`fitted_form`]). A Bezier track's Linear segments are written
//! as cubics on their chords ([`as_bezier_segments`], exact); a track with Constant or eased
//! segments (Blender's easing equations) is fitted, within the adaptive bound or
//! [`crate::DEFAULT_ACCURACY`], and reports the error the fit measured.
//!
//! three.js' `BezierInterpolant` applies no overlap correction, so the control points written
//! are the ones Tangent evaluates with: Blender's correction ([`crate::bezier::corrected`])
//! applied per segment. A key's right handle belongs to the segment after it and its left
//! handle to the segment before, so each is corrected once.

use crate::bake::Bound;
use crate::bezier::corrected;
use crate::convert::to_bezier;
use crate::curve::PathCurve;
use crate::curve::TrackCurve;
use crate::model::{HandleType, Interpolation, KeyInterpolation, Track, TrackKind};

use super::{Exact, ExportError, ExportOptions, Form, Format};

/// The Bezier curve a track exports as, and its difference from the track: itself if
/// Bezier; TCB and Cubic tracks converted ([`crate::convert`]: exactly, or within `bound`
/// where TCB segments have ease); `None` for the rest.
pub(super) fn bezier_curve(track: &Track, curve: &TrackCurve, bound: f64) -> Option<(TrackCurve, f64)> {
    match track.interpolation {
        Interpolation::Bezier if segments(track) != Segments::Fitted => Some((curve.clone(), 0.0)),
        Interpolation::Bezier => {
            let converted = to_bezier(track, bound).ok()?;
            Some((TrackCurve::new(&converted.track).ok()?, converted.max_difference))
        }
        Interpolation::Tcb | Interpolation::Cubic => {
            let converted = to_bezier(track, bound).ok()?;
            let error = if converted.added_keys == 0 { 0.0 } else { converted.max_difference };
            Some((TrackCurve::new(&converted.track).ok()?, error))
        }
        _ => None,
    }
}

/// `(inTangents, outTangents)` for three.js: per key and component `[t, v]` of the handle's
/// end point, corrected as the segment it belongs to uses it.
pub(super) fn three_tangents(curve: &TrackCurve) -> (Vec<f64>, Vec<f64>) {
    let (times, dim) = (curve.times(), curve.dim());
    let n = times.len();
    let (mut ins, mut outs) = (Vec::with_capacity(2 * n * dim), Vec::with_capacity(2 * n * dim));
    for i in 0..n {
        for c in 0..dim {
            let (t, v) = (times[i], curve.key_value(i)[c]);
            let (mut left, mut right) = curve.bezier_handles(i, c).unwrap_or(((0.0, 0.0), (0.0, 0.0)));
            if i > 0 && times[i] > times[i - 1] {
                left = corrected(times[i] - times[i - 1], curve.bezier_handles(i - 1, c).map_or((0.0, 0.0), |h| h.1), left).1;
            }
            if i + 1 < n && times[i + 1] > times[i] {
                right = corrected(times[i + 1] - times[i], right, curve.bezier_handles(i + 1, c).map_or((0.0, 0.0), |h| h.0)).0;
            }
            ins.extend_from_slice(&[t + left.0, v + left.1]);
            outs.extend_from_slice(&[t + right.0, v + right.1]);
        }
    }
    (ins, outs)
}

/// glTF CUBICSPLINE `[in-tangent, value, out-tangent]` per key (per second), if every used
/// handle sits at a third of its segment in time (within 1e-12 of the segment): then each
/// segment is the Hermite cubic glTF plays, with tangent `3·dv/Δt`. The two end tangents
/// glTF never plays are 0, unless the end handle is Free and a third of the neighbouring
/// segment (of 1 s for a lone key) long: then its tangent, as glTF import stored it, so an
/// imported channel is written back unchanged.
pub(super) fn cubic_spline_from_handles(track: &Track, curve: &TrackCurve) -> Option<Vec<f64>> {
    let (times, dim) = (curve.times(), curve.dim());
    let n = times.len();
    let third = |dt: f64, len: f64| (dt.abs() - len / 3.0).abs() <= 1e-12 * len;
    let free = |i: usize, left: bool| track.keys.get(i).is_some_and(|k| (if left { k.handles.0 } else { k.handles.1 }) == HandleType::Free);
    let mut values = Vec::with_capacity(3 * n * dim);
    for i in 0..n {
        let before = (i > 0).then(|| times[i] - times[i - 1]);
        let after = (i + 1 < n).then(|| times[i + 1] - times[i]);
        let lone = (n == 1).then_some(1.0);
        let end_in = if before.is_none() && free(i, true) { after.or(lone) } else { None };
        let end_out = if after.is_none() && free(i, false) { before.or(lone) } else { None };
        let mut ins = vec![0.0; dim];
        let mut outs = vec![0.0; dim];
        for c in 0..dim {
            let (left, right) = curve.bezier_handles(i, c)?;
            if let Some(len) = before {
                if !(len > 0.0 && third(left.0, len)) {
                    return None;
                }
                ins[c] = 3.0 * -left.1 / len;
            } else if let Some(len) = end_in.filter(|&len| third(left.0, len)) {
                ins[c] = 3.0 * -left.1 / len;
            }
            if let Some(len) = after {
                if !(len > 0.0 && third(right.0, len)) {
                    return None;
                }
                outs[c] = 3.0 * right.1 / len;
            } else if let Some(len) = end_out.filter(|&len| third(right.0, len)) {
                outs[c] = 3.0 * right.1 / len;
            }
        }
        values.extend_from_slice(&ins);
        values.extend_from_slice(curve.key_value(i));
        values.extend_from_slice(&outs);
    }
    Some(values)
}

/// What the segments of a Bezier track are, for export: every one a Bézier cubic, some
/// Linear (still exact as cubics), or some Constant or eased (fitted within a bound).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Segments {
    Bezier,
    WithLinear,
    Fitted,
}

/// The segments of `track` (its last key's interpolation shapes no segment).
pub(super) fn segments(track: &Track) -> Segments {
    let before_last = &track.keys[..track.keys.len().saturating_sub(1)];
    if before_last.iter().any(|k| !matches!(k.interpolation, KeyInterpolation::Bezier | KeyInterpolation::Linear)) {
        Segments::Fitted
    } else if before_last.iter().any(|k| k.interpolation == KeyInterpolation::Linear) {
        Segments::WithLinear
    } else {
        Segments::Bezier
    }
}

/// The same curve with every segment a Bézier cubic: each key's handles stored Free as the
/// curve resolved them, and a Linear segment's handles on its chord at thirds of its time
/// (the cubic that is the straight line, exactly as glTF and three.js play it).
pub(super) fn as_bezier_segments(track: &Track, curve: &TrackCurve) -> Track {
    let dim = curve.dim();
    let mut keys = track.keys.clone();
    for i in 0..keys.len() {
        let (left, right): (Vec<_>, Vec<_>) = (0..dim).map(|c| curve.bezier_handles(i, c).unwrap_or(((0.0, 0.0), (0.0, 0.0)))).unzip();
        let key = &mut keys[i];
        (key.left, key.right, key.handles) = (left, right, (HandleType::Free, HandleType::Free));
    }
    for i in 0..keys.len().saturating_sub(1) {
        if keys[i].interpolation != KeyInterpolation::Linear {
            continue;
        }
        let dt = keys[i + 1].time - keys[i].time;
        for c in 0..dim {
            let dv = keys[i + 1].value[c] - keys[i].value[c];
            keys[i].right[c] = (dt / 3.0, dv / 3.0);
            keys[i + 1].left[c] = (-dt / 3.0, -dv / 3.0);
        }
        keys[i].interpolation = KeyInterpolation::Bezier;
    }
    track.with_other_keys(keys)
}

/// Adaptive export's cubic form: Bezier keys fitted within the bound over `range`
/// ([`crate::reduce::fit_range`], handles at thirds), as glTF CUBICSPLINE or three.js
/// `InterpolateBezier`. `None` where it does not apply (no bound, linear asked for, CSV,
/// three.js before r187, rotations, constant-speed paths) or the fit missed the bound.
pub(super) fn fitted_form(track: &Track, curve: &TrackCurve, format: Format, options: &ExportOptions, range: (f64, f64)) -> Result<Option<Exact>, ExportError> {
    // A Bezier track with Constant or eased segments is fitted even without `--adaptive`
    // (within the default accuracy): its keys are Bézier keys either way.
    let eased = track.interpolation == Interpolation::Bezier && segments(track) == Segments::Fitted;
    let Some(bound) = options.adaptive.map(Bound::get).or_else(|| eased.then_some(crate::DEFAULT_ACCURACY)) else { return Ok(None) };
    let cubic_format = matches!(format, Format::Gltf | Format::Glb) || (format == Format::ThreeJson && options.three_bezier);
    let path = options.constant_speed && PathCurve::check(track.kind, track.interpolation).is_ok();
    if options.adaptive_linear || !cubic_format || path || track.kind == TrackKind::Quat || !(range.1 > range.0) {
        return Ok(None);
    }
    // Constant and eased segments are pieced (`convert::to_bezier`): the reduction's fit
    // cannot follow their corners and jumps.
    let fitted = if eased {
        match to_bezier(track, bound) {
            Ok(c) if c.max_difference <= bound => (c.track, c.max_difference),
            _ => return Ok(None),
        }
    } else {
        match crate::reduce::fit_range(track, curve, range, bound) {
            Ok(f) if f.max_error <= bound => (f.track, f.max_error),
            Ok(_) => return Ok(None),
            Err(e) => return Err(ExportError::Encode(e.to_string())),
        }
    };
    let (fitted_track, max_error) = fitted;
    let fc = TrackCurve::new(&fitted_track)?;
    let times = fc.times().to_vec();
    if format != Format::ThreeJson && times.windows(2).any(|w| w[0] == w[1]) {
        // glTF times must increase strictly: a jump stays in the linear bake.
        return Ok(None);
    }
    let exact = if format == Format::ThreeJson {
        let values = (0..times.len()).flat_map(|i| fc.key_value(i).iter().copied()).collect();
        Exact { form: Form::Bezier, times, values, tangents: Some(three_tangents(&fc)), max_error }
    } else {
        let Some(values) = cubic_spline_from_handles(&fitted_track, &fc) else { return Ok(None) };
        Exact { form: Form::CubicSpline, times, values, tangents: None, max_error }
    };
    Ok(Some(exact))
}
