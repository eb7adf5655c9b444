//! Export for a runtime (issue 34, `--runtime`): after a track is prepared for the glTF
//! specification, the chosen runtime's model ([`crate::runtime`]) plays what would be written.
//!
//! - **Blender** (glTF only; `blender` is 4.2 LTS and later, `blender-3.4` Blender 3.4):
//!   CUBICSPLINE keys lose their tangents in Blender's importer, so a track that would go as
//!   CUBICSPLINE goes instead, with `--adaptive E`, as the keys whose Continuous Acceleration
//!   curve with that Blender's automatic handles (Auto in 4.2+, AutoClamped in 3.4) stays
//!   within E ([`crate::runtime::blender_keys`]; for 4.2+ at least 0.0102 frames apart at 24
//!   fps, which it does not merge; their tangents written as Blender's handles, so every
//!   runtime plays the same curve), or as linear keys within E where those are fewer; without
//!   `--adaptive` it is baked at the frame rate. Rotations, whose components Blender
//!   interpolates one by one and normalises, get keys added where that strays beyond E from
//!   the curve. The report's error is then the one measured with that Blender's model.
//! - **Godot 3.2** (glTF only): its importer misreads CUBICSPLINE tangents (and drops
//!   CUBICSPLINE morph weights), so such a track goes as linear keys within E (`--adaptive`)
//!   or baked at the frame rate; Godot then resamples every transform at its import frame rate
//!   ([`crate::runtime::godot`]), which the report's error and the warnings measure.
//! - **the specification** (the default) in glTF: a CUBICSPLINE track that Blender (4.2+, the
//!   `blender` runtime) would play beyond the bound gets a warning that says how far, and that
//!   `--runtime blender` fixes it.
//!
//! The bound is `--adaptive`'s E, or for a track written exactly (error 0)
//! [`crate::DEFAULT_ACCURACY`]; a track baked at the frame rate reports its error and is
//! warned about only when the runtime plays it further off than that.

use super::{ExportError, ExportOptions, Form, Format, Prepared, Target};
use crate::bake::{bake_range, Bound, Motion, Rate};
use crate::curve::TrackCurve;
use crate::model::Project;
use crate::model::Track;
use crate::runtime::blender::Version;
use crate::runtime::{blender, blender_keys, deviation, godot, Played, Runtime, Written};

/// Refinement depth for a rotation's segments under Blender's component-wise interpolation.
const ROTATION_SPLITS: usize = 24;

fn is_gltf(format: Format) -> bool {
    matches!(format, Format::Gltf | Format::Glb)
}

/// Whether `runtime` reads `format`: Blender's and Godot's models are of their glTF importers.
pub(super) fn check(runtime: Runtime, format: Format) -> Result<(), ExportError> {
    if matches!(runtime, Runtime::Blender | Runtime::Blender34 | Runtime::Godot) && !is_gltf(format) {
        return Err(ExportError::Runtime { runtime, format });
    }
    Ok(())
}

/// The track as the file will hold it (values before float32 rounding).
pub(super) fn written(p: &Prepared) -> Written {
    Written {
        form: p.form,
        rotation: p.target == Target::Rotation,
        width: p.width,
        times: p.times.clone(),
        values: p.values.clone(),
        tangents: p.tangents.clone(),
    }
}

/// The bound a track's playback is held to: `--adaptive`'s E, or for a track written exactly
/// [`crate::DEFAULT_ACCURACY`]; none for a track baked at the frame rate.
fn bound_of(p: &Prepared, options: &ExportOptions) -> Option<f64> {
    match options.adaptive {
        Some(b) => Some(b.get()),
        None if p.max_error == 0.0 => Some(crate::DEFAULT_ACCURACY),
        None => None,
    }
}

/// `version`'s playback of `p` from the curve: its distance (an angle in radians for rotations).
fn blender_deviation(version: Version, p: &Prepared, curve: &TrackCurve) -> Result<f64, ExportError> {
    Ok(deviation(curve, &played_by(version.runtime(), p)?))
}

/// What `runtime` plays of `p`: Blender at the written times (not float32 frames; 4.2+ merging
/// keys as at 24 fps), Godot as its import at its default frame rate over the track's own
/// keys.
fn played_by(runtime: Runtime, p: &Prepared) -> Result<Played, ExportError> {
    let w = written(p);
    let played = match runtime {
        Runtime::Blender => blender::play_unrounded(Version::V4_2, &w),
        Runtime::Blender34 => blender::play_unrounded(Version::V3_4, &w),
        Runtime::Godot => {
            let channel = if p.target == Target::Weights { godot::Channel::Weights } else { godot::Channel::Transform };
            godot::play(&w, channel, godot::DEFAULT_FPS, w.times.last().copied().unwrap_or(0.0))
        }
        Runtime::Spec | Runtime::Three => crate::runtime::play(runtime, &w),
    };
    played.map_err(|e| ExportError::Encode(e.to_string()))
}

/// `--runtime godot`: CUBICSPLINE keys, which Godot 3.2 misreads (and drops for weights),
/// become linear keys within the bound (`--adaptive`) or keys baked at the frame rate; then
/// Godot's resampling at its import frame rate is measured, and a track it plays beyond the
/// bound is warned about.
fn for_godot(p: &mut Prepared, curve: &TrackCurve, bound: Option<f64>, options: &ExportOptions) -> Result<(), ExportError> {
    if p.form == Form::CubicSpline && !p.times.is_empty() {
        let (t0, t1) = (p.times[0], p.times[p.times.len() - 1]);
        let rate = options.adaptive.map_or_else(|| options.rate(), Rate::Adaptive);
        let baked = bake_range(curve, rate, Motion::Raw, t0, t1);
        let n = baked.times.len();
        (p.form, p.times, p.values, p.max_error) = (Form::Baked, baked.times, baked.values, baked.max_error);
        p.note = Some(format!("{n} linear keys for Godot 3.2, which misreads CUBICSPLINE tangents"));
    }
    let measured = deviation(curve, &played_by(Runtime::Godot, p)?);
    p.max_error = p.max_error.max(measured);
    if let Some(bound) = bound.filter(|&b| measured > b * (1.0 + 1e-9)) {
        p.warning = Some(format!(
            "Godot 3.2 plays it up to {measured:.3e} from the curve, beyond {bound:.0e}: its glTF import resamples at {} fps (raise Import > Animation > FPS, and turn the import's optimizer off)",
            godot::DEFAULT_FPS
        ));
    }
    Ok(())
}

/// What the chosen runtime changes in `p` (module docs).
pub(super) fn for_runtime(p: &mut Prepared, track: &Track, format: Format, options: &ExportOptions) -> Result<(), ExportError> {
    let curve = TrackCurve::new(track)?;
    let bound = bound_of(p, options);
    match options.runtime {
        Runtime::Blender | Runtime::Blender34 => {
            let version = options.runtime.blender().unwrap_or(Version::V4_2);
            let bound = for_blender(version, p, track, &curve, options)?.and(bound);
            // A merged key (4.2+) changes a LINEAR or STEP track too.
            let merges = {
                let w = written(p);
                blender::kept(version, &w, blender::FACTORY_FPS).len() < w.times.len()
            };
            let measured =
                if p.target == Target::Rotation || p.form == Form::CubicSpline || merges { blender_deviation(version, p, &curve)? } else { p.max_error };
            p.max_error = p.max_error.max(measured);
            match bound {
                Some(bound) if measured > bound * (1.0 + 1e-9) => {
                    p.warning = Some(format!("{} plays it up to {measured:.3e} from the curve, beyond the bound {bound:.0e}", options.runtime));
                }
                _ => {}
            }
        }
        Runtime::Spec if is_gltf(format) && p.form == Form::CubicSpline => {
            let played = blender_deviation(Version::V4_2, p, &curve)?;
            match bound {
                Some(bound) if played > bound * (1.0 + 1e-9) => {
                    p.warning = Some(format!(
                        "{} plays it up to {played:.3e} from the curve (its glTF importer ignores CUBICSPLINE tangents), beyond {bound:.0e}; --runtime blender writes keys it plays within the bound",
                        Runtime::Blender
                    ));
                }
                _ => {}
            }
        }
        Runtime::Godot => for_godot(p, &curve, bound, options)?,
        Runtime::Spec | Runtime::Three => {}
    }
    Ok(())
}

/// Blender's keys for `p` (module docs); `None` when the track was baked at the frame rate for
/// Blender (no bound to warn about), else `Some(())`.
fn for_blender(version: Version, p: &mut Prepared, track: &Track, curve: &TrackCurve, options: &ExportOptions) -> Result<Option<()>, ExportError> {
    let rotation = p.target == Target::Rotation;
    if p.times.is_empty() {
        return Ok(Some(()));
    }
    let span = (p.times[0], p.times[p.times.len() - 1]);
    if p.form == Form::CubicSpline {
        match options.adaptive {
            Some(bound) if !rotation => blender_cubic(version, p, track, curve, span, bound)?,
            _ => {
                let baked = bake_range(curve, options.rate(), Motion::Raw, span.0, span.1);
                (p.form, p.times, p.values, p.max_error) = (Form::Baked, baked.times, baked.values, baked.max_error);
                p.note = Some(format!("baked for {}, which does not read CUBICSPLINE tangents ({} keys)", version.runtime(), p.times.len()));
                if options.adaptive.is_none() {
                    return Ok(None);
                }
            }
        }
    }
    if let (true, Form::Linear | Form::Baked, Some(bound)) = (rotation, p.form, options.adaptive) {
        let added = split_rotation(version, p, curve, bound.get());
        if added > 0 {
            p.form = Form::Baked;
            let how = format!("{added} keys added where Blender's component-wise interpolation strayed beyond {:e} rad", bound.get());
            p.note = Some(p.note.take().map_or(how.clone(), |n| format!("{n}; {how}")));
        }
    }
    Ok(Some(()))
}

/// Frame rates whose float32 frame numbers Blender's keys are checked at ([`blender_cubic`]).
pub const CHECKED_FPS: [f64; 5] = [24.0, 25.0, 30.0, 50.0, 60.0];

/// Fractions of the bound the fit is tried at when float32 frames push it beyond the bound.
const TIGHTER: [f64; 3] = [1.0, 0.5, 0.25];

/// [`TIGHTER`] for Blender 4.2+, whose keys can crowd only down to
/// [`crate::runtime::MERGE_SPACING`]: at a flattened end or a corner the fit reaches the bound
/// with little to spare (the demo's `bounce` at 1e-3: 9.999e-4, 1.0008e-3 at 30 fps's float32
/// frames, within 0.97e-3 fitted at 0.97), and at half the bound not at all.
const TIGHTER_SPACED: [f64; 6] = [1.0, 0.97, 0.9, 0.75, 0.5, 0.25];

/// `--adaptive` with Blender: keys `version`'s automatic handles carry within the bound, or
/// linear keys where those are fewer. Blender stores each key at a float32 frame number; keys crowded
/// towards a corner make the curve sensitive to that rounding, so the keys are played at the
/// float32 frames of the usual rates ([`CHECKED_FPS`]) and fitted tighter ([`TIGHTER`]), or
/// left to linear keys, where that strays beyond the bound (for 4.2+ no two closer than it
/// keeps apart: [`spaced_linear`]).
fn blender_cubic(version: Version, p: &mut Prepared, track: &Track, curve: &TrackCurve, span: (f64, f64), bound: Bound) -> Result<(), ExportError> {
    let mut linear = bake_range(curve, Rate::Adaptive(bound), Motion::Raw, span.0, span.1);
    if version.merges() {
        spaced_linear(track, curve, span, &mut linear)?;
    }
    let mut why = if version.merges() {
        "fewer than Blender 4.2+'s automatic handles need, or those would need keys closer than the 0.01 frames it keeps apart"
    } else {
        "fewer than Blender's automatic handles need"
    };
    for &fraction in if version.merges() { &TIGHTER_SPACED[..] } else { &TIGHTER[..] } {
        let Some(k) = blender_keys(version, track, curve, span, bound.get() * fraction, linear.times.len())? else { break };
        let kc = TrackCurve::new(&k.track)?;
        let mut w = written(p);
        (w.times, w.values) = (kc.times().to_vec(), handle_slopes(&kc));
        let mut max_error = k.max_error;
        for fps in CHECKED_FPS {
            let played = blender::play(version, &w, fps).map_err(|e| ExportError::Encode(e.to_string()))?;
            max_error = max_error.max(deviation(curve, &played));
        }
        if max_error <= bound.get() {
            let n = w.times.len();
            (p.times, p.values, p.max_error) = (w.times, w.values, max_error);
            p.note = Some(format!("{n} keys for {}'s automatic handles (linear: {} keys)", version.runtime(), linear.times.len()));
            return Ok(());
        }
        why = "Blender's keys would stray beyond the bound at float32 frames";
    }
    let n = linear.times.len();
    (p.form, p.times, p.values, p.max_error) = (Form::Baked, linear.times, linear.values, linear.max_error);
    p.note = Some(format!("{n} linear keys: {why}"));
    Ok(())
}

/// For Blender 4.2+, which merges keys closer than 0.01 frames (moving a corner the keys
/// straddle): each run of linear keys closer than [`crate::runtime::MERGE_SPACING`] (and its
/// float32 slack) becomes one key from the curve, at the run's middle or at the span's end it
/// holds; the error measured again (exactly per piece).
fn spaced_linear(track: &Track, curve: &TrackCurve, span: (f64, f64), baked: &mut crate::bake::Baked) -> Result<(), ExportError> {
    let close = |a: f64, b: f64| b - a <= crate::runtime::MERGE_SPACING + crate::runtime::MERGE_SLACK * a.abs().max(b.abs());
    if !baked.times.windows(2).any(|w| close(w[0], w[1])) {
        return Ok(());
    }
    let mut runs: Vec<(f64, f64)> = Vec::new();
    for &t in &baked.times {
        match runs.last_mut() {
            Some(run) if close(run.1, t) => run.1 = t,
            _ => runs.push((t, t)),
        }
    }
    let times: Vec<f64> = runs
        .iter()
        .map(|&(a, b)| match (a, b) {
            (a, _) if a == span.0 => a,
            (_, b) if b == span.1 => b,
            (a, b) => 0.5 * (a + b),
        })
        .collect();
    let mut ev = curve.evaluator();
    let keys: Vec<crate::model::Key> = times.iter().map(|&t| crate::model::Key::new(t, ev.value_at(t))).collect();
    let played = TrackCurve::new(&Track::new("linear", track.kind, crate::model::Interpolation::Linear).with_keys(keys.clone()))?;
    baked.max_error = crate::reduce::measure::max_difference(curve, &played, f64::MIN_POSITIVE).0;
    baked.values = keys.into_iter().flat_map(|k| k.value).collect();
    baked.times = times;
    Ok(())
}

/// Adds keys from the curve (each turned into the hemisphere of the key before) inside every
/// segment whose component-wise interpolation, normalised, strays beyond `bound` radians from
/// the curve, halving until it does not (for Blender 4.2+ not below
/// [`crate::runtime::MERGE_SPACING`], closer than which it would merge keys); the number added.
fn split_rotation(version: Version, p: &mut Prepared, curve: &TrackCurve, bound: f64) -> usize {
    let shortest = |t: f64| if version.merges() { 2.0 * (crate::runtime::MERGE_SPACING + crate::runtime::MERGE_SLACK * t.abs()) } else { 0.0 };
    let mut w = written(p);
    w.form = Form::Linear;
    let keys = blender::key_values(&w);
    let (mut cursor, mut scratch) = (crate::search::SegmentCursor::new(), vec![0.0; curve.dim()]);
    let mut rot = |t: f64| curve.rotation_at(&mut cursor, t, &mut scratch).unwrap_or(crate::quat::IDENTITY).to_vec();
    let (mut times, mut values) = (vec![p.times[0]], keys[0].clone());
    let mut added = 0;
    for k in 1..p.times.len() {
        let mut stack = vec![(p.times[k], keys[k].clone(), 0)];
        while let Some((tb, qb, depth)) = stack.pop() {
            let (ta, qa) = (times[times.len() - 1], values[values.len() - 4..].to_vec());
            let strays = tb - ta > shortest(tb) && depth < ROTATION_SPLITS && {
                let steps = crate::reduce::measure::DENSE_POINTS;
                (1..steps).any(|i| {
                    let u = i as f64 / steps as f64;
                    let lerp: Vec<f64> = qa.iter().zip(&qb).map(|(a, b)| a + (b - a) * u).collect();
                    crate::reduce::rotation::angle_deg(&lerp, &rot(ta + (tb - ta) * u)).to_radians() > bound
                })
            };
            if strays {
                let tm = 0.5 * (ta + tb);
                let mut qm = rot(tm);
                if qm.iter().zip(&qa).map(|(a, b)| a * b).sum::<f64>() < 0.0 {
                    qm.iter_mut().for_each(|x| *x = -*x);
                }
                stack.push((tb, qb, depth + 1));
                stack.push((tm, qm, depth + 1));
                added += 1;
            } else {
                times.push(tb);
                values.extend_from_slice(&qb);
            }
        }
    }
    (p.times, p.values) = (times, values);
    added
}

/// CUBICSPLINE `[in-tangent, value, out-tangent]` per key with the slopes of the curve's
/// resolved handles (`dv/dt`, per second; zero at the open ends, which glTF never plays): the
/// Hermite spline the specification plays is then Blender's curve, since automatic handles sit
/// a third of each segment away (to rounding: the continuous-acceleration solve leaves them
/// within about 1e-11 of a third).
fn handle_slopes(curve: &TrackCurve) -> Vec<f64> {
    let (n, dim) = (curve.times().len(), curve.dim());
    let mut values = Vec::with_capacity(3 * n * dim);
    let slope = |h: (f64, f64)| if h.0 == 0.0 { 0.0 } else { h.1 / h.0 };
    for i in 0..n {
        let handles: Vec<_> = (0..dim).map(|c| curve.bezier_handles(i, c).unwrap_or(((0.0, 0.0), (0.0, 0.0)))).collect();
        values.extend(handles.iter().map(|h| if i > 0 { slope(h.0) } else { 0.0 }));
        values.extend_from_slice(curve.key_value(i));
        values.extend(handles.iter().map(|h| if i + 1 < n { slope(h.1) } else { 0.0 }));
    }
    values
}

/// One track of [`preview`]: the curve the runtime plays and its largest distance from the
/// track's curve (an angle in radians for rotations).
#[derive(Clone, Debug)]
pub struct PreviewTrack {
    /// The track's index in the project.
    pub track: usize,
    /// The components as the runtime interpolates them (a rotation before normalising).
    pub played: TrackCurve,
    pub deviation: f64,
}

/// What `played_by` plays of the export of `project` to `format` with `options` (whose
/// `runtime` chose the keys), per exported track: for the editor's preview (the export's own
/// tracks, before any are merged). As the export's own reports, at the written times (not
/// float32 frames, which would move a Step track's jumps by a float32 step).
///
/// `progress(done, total)` as [`super::export`]'s: `false` cancels.
///
/// # Errors
/// As [`super::export`]; Blender asked to play a three.js JSON export.
pub fn preview(
    project: &Project,
    format: Format,
    options: &ExportOptions,
    played_by: Runtime,
    progress: &(dyn Fn(usize, usize) -> bool + Sync),
) -> Result<Vec<PreviewTrack>, ExportError> {
    check(played_by, format)?;
    let prepared = super::prepare_all(project, format, options, progress)?;
    let mut out = Vec::with_capacity(prepared.len());
    for p in &prepared {
        let Some(track) = project.tracks.iter().position(|t| t.name == p.name) else { continue };
        let curve = TrackCurve::new(&project.tracks[track])?;
        let played = self::played_by(played_by, p)?;
        out.push(PreviewTrack { track, deviation: deviation(&curve, &played), played: played.curve().clone() });
    }
    Ok(out)
}
