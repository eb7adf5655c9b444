//! Hand-checked cases for the filters (scipy's own numbers are in
//! `tests/smooth_reference.rs`): coefficients and weights worked out on paper, constant and
//! linear signals, a spike under the median, the errors and their ranges, quaternions.

use super::signal::{butter_lowpass, filtfilt, gaussian, gaussian_kernel, lfilter_zi, median};
use super::*;
use crate::model::{Interpolation, Key, Track, TrackKind};

fn close(a: f64, b: f64, tol: f64) -> bool {
    (a - b).abs() <= tol * b.abs().max(1.0)
}

fn track(kind: TrackKind, mode: Interpolation, times: &[f64], values: impl Fn(usize, f64) -> Vec<f64>) -> Track {
    let mut t = Track::new("t", kind, mode);
    t.keys = times.iter().enumerate().map(|(i, &x)| Key::new(x, values(i, x))).collect();
    t
}

fn uniform(n: usize, rate: f64) -> Vec<f64> {
    (0..n).map(|i| i as f64 / rate).collect()
}

/// Order 1 at cutoff fc, rate fs: with K = tan(π·fc/fs) the bilinear transform of
/// 1/(1 + s/ω) gives b = [K, K]/(1 + K), a = [1, (K − 1)/(K + 1)]. At fc = fs/4, K = 1:
/// b = [1/2, 1/2], a = [1, 0].
#[test]
fn order_one_coefficients_by_hand() {
    for (fc, fs) in [(7.5, 30.0), (2.0, 60.0), (10.0, 120.0)] {
        let k = (std::f64::consts::PI * fc / fs).tan();
        let (b, a) = butter_lowpass(1, fc, fs);
        let want_b = [k / (1.0 + k), k / (1.0 + k)];
        let want_a = [1.0, (k - 1.0) / (k + 1.0)];
        for (x, y) in b.iter().chain(&a).zip(want_b.iter().chain(&want_a)) {
            assert!((x - y).abs() < 1e-15, "{fc} Hz at {fs}: {b:?} {a:?}");
        }
    }
    let (b, a) = butter_lowpass(1, 7.5, 30.0);
    assert!(close(b[0], 0.5, 1e-15) && a[1].abs() < 1e-15, "{b:?} {a:?}");
    // lfilter_zi of order 1: zi = (b1 − a1·b0)/(1 + a1); a constant input x gives y = x.
    let zi = lfilter_zi(&b, &a);
    assert!(close(zi[0], (b[1] - a[1] * b[0]) / (1.0 + a[1]), 1e-15));
}

/// Order 2: the DC gain Σb/Σa is 1 and the gain at Nyquist (z = −1) is 0 for any cutoff;
/// the poles are a conjugate pair inside the unit circle.
#[test]
fn order_two_unit_dc_gain_and_zero_at_nyquist() {
    for order in 1..=MAX_ORDER {
        let (b, a) = butter_lowpass(order, 5.0, 60.0);
        let dc = b.iter().sum::<f64>() / a.iter().sum::<f64>();
        assert!(close(dc, 1.0, 1e-12), "order {order}: DC gain {dc}");
        let alt = |c: &[f64]| c.iter().enumerate().map(|(i, x)| if i % 2 == 0 { *x } else { -x }).sum::<f64>();
        assert!(alt(&b).abs() < 1e-15, "order {order}: gain at Nyquist {}", alt(&b) / alt(&a));
    }
}

/// A constant signal comes out unchanged from every filter (zi makes filtfilt start at the
/// steady state; the kernels sum to one; a median of equal values is that value). High orders
/// in transfer-function form lose digits: scipy's own filtfilt is 6e-11 off at order 8 here.
#[test]
fn constant_signal_unchanged() {
    let x = vec![3.25; 100];
    for order in 1..=MAX_ORDER {
        let (b, a) = butter_lowpass(order, 4.0, 60.0);
        assert!(filtfilt(&b, &a, &x).iter().all(|y| close(*y, 3.25, 1e-9)), "order {order}");
    }
    assert!(gaussian(&x, 2.5).iter().all(|y| close(*y, 3.25, 1e-15)));
    assert_eq!(median(&x, 7), x);
}

/// A straight line through filtfilt: `lfilter_zi` is the steady state of a constant, not of a
/// ramp, so the start bends (scipy 1.17 measures 0.1537268294634373 at worst for this line,
/// quoted here) and the bend dies away inside (3.2e-4 from key 30 on). The Gaussian with
/// 'nearest' bends the line only within its radius of the ends.
#[test]
fn straight_line_through_filtfilt() {
    let x: Vec<f64> = (0..200).map(|i| 0.5 * i as f64 - 3.0).collect();
    let (b, a) = butter_lowpass(2, 3.0, 60.0);
    let y = filtfilt(&b, &a, &x);
    let off: Vec<f64> = x.iter().zip(&y).map(|(p, q)| (p - q).abs()).collect();
    let worst = off.iter().copied().fold(0.0, f64::max);
    assert!(close(worst, 0.153_726_829_463_437_3, 1e-12), "{worst}");
    assert!(off[30..170].iter().all(|d| *d < 3.2e-4));
    let g = gaussian(&x, 2.0);
    assert!(x[9..191].iter().zip(&g[9..191]).all(|(p, q)| (p - q).abs() < 1e-12));
}

/// σ = 1: radius int(4.5) = 4, weights e^(−k²/2)/Σ, by hand: the sum 1 + 2(e^−½ + e^−2 +
/// e^−4.5 + e^−8) = 2.5066208… (√(2π) = 2.5066283 less the tails).
#[test]
fn gaussian_kernel_by_hand() {
    let w = gaussian_kernel(1.0);
    assert_eq!(w.len(), 9);
    let e = |x: f64| (-x).exp();
    let sum = 1.0 + 2.0 * (e(0.5) + e(2.0) + e(4.5) + e(8.0));
    assert!((sum - 2.506_620_8).abs() < 1e-7, "{sum}");
    for (k, wk) in w[4..].iter().enumerate() {
        assert!(close(*wk, e(0.5 * (k * k) as f64) / sum, 1e-15), "k = {k}: {wk}");
    }
    // σ = 0.1: radius int(0.9) = 0, the identity.
    assert_eq!(gaussian_kernel(0.1), vec![1.0]);
    // 'nearest': x = [0, 0, 1] with σ = 1 at the last sample sees 1 for every k ≥ 0:
    // w0 + Σ_{k≥1} wk (the left side is 0 at k = 1, 2 and 0 beyond).
    let y = gaussian(&[0.0, 0.0, 1.0], 1.0);
    assert!(close(y[2], w[4] + w[5] + w[6] + w[7] + w[8], 1e-15), "{y:?}");
}

/// A one-sample spike is gone under a 3-sample median; the ends are held ('nearest').
#[test]
fn median_removes_a_spike() {
    let mut x: Vec<f64> = (0..20).map(|i| i as f64 * 0.1).collect();
    x[7] = 50.0;
    let y = median(&x, 3);
    assert!((y[7] - 0.8).abs() < 1e-15 && (y[6] - 0.6).abs() < 1e-15, "{y:?}");
    assert_eq!((y[0], y[19]), (0.0, x[19]));
    // A two-sample spike under a 5-sample window.
    x[8] = 40.0;
    let y = median(&x, 5);
    assert!(y.iter().all(|v| *v < 2.0), "{y:?}");
    // Window sizes: 0.1 s at 30 Hz is 3; at 60 Hz 6 → 7; 0.04 s at 30 Hz is 1.2 → 1 (too short).
    assert_eq!((Filter::median_size(0.1, 30.0), Filter::median_size(0.1, 60.0), Filter::median_size(0.04, 30.0)), (3, 7, 1));
}

/// Each bad parameter says what the valid range is.
#[test]
fn bad_parameters_say_the_range() {
    let msg = |e: SmoothError| e.to_string();
    assert_eq!(msg(Filter::butterworth(0.0, 2).unwrap_err()), "the cutoff must be above 0 Hz, got 0 Hz");
    assert_eq!(msg(Filter::butterworth(5.0, 9).unwrap_err()), "the order must be 1 to 8, got 9");
    assert_eq!(msg(Filter::butterworth(5.0, 0).unwrap_err()), "the order must be 1 to 8, got 0");
    assert_eq!(msg(Filter::gaussian(-1.0).unwrap_err()), "sigma must be above 0 seconds, got -1");
    assert_eq!(msg(Filter::median(0.0).unwrap_err()), "the median window must be above 0 seconds, got 0");
    let t = track(TrackKind::Scalar, Interpolation::Linear, &uniform(40, 30.0), |i, _| vec![i as f64]);
    let f = Filter::butterworth(15.0, 2).unwrap();
    assert_eq!(msg(smooth_track(&t, &f).unwrap_err()), "the cutoff 15 Hz must be below the Nyquist rate 15 Hz (half the keys' rate of 30 Hz)");
    let short = track(TrackKind::Scalar, Interpolation::Linear, &uniform(9, 30.0), |i, _| vec![i as f64]);
    let e = msg(smooth_track(&short, &Filter::butterworth(5.0, 2).unwrap()).unwrap_err());
    assert!(e.starts_with("9 keys: the Butterworth filter of order 2 (filtfilt pads each end with 3·(order + 1) = 9 keys"), "{e}");
    assert!(e.ends_with("needs at least 10"), "{e}");
    assert!(smooth_track(&track(TrackKind::Scalar, Interpolation::Linear, &uniform(10, 30.0), |i, _| vec![i as f64]), &f).is_err());
    let ok = track(TrackKind::Scalar, Interpolation::Linear, &uniform(10, 30.0), |i, _| vec![i as f64]);
    assert!(smooth_track(&ok, &Filter::butterworth(5.0, 2).unwrap()).is_ok());
    assert_eq!(
        msg(smooth_track(&ok, &Filter::median(0.04).unwrap()).unwrap_err()),
        "the median window 0.04 s covers fewer than 3 keys at 30 Hz: it must be at least 0.05 s"
    );
    let step = track(TrackKind::Scalar, Interpolation::Step, &uniform(10, 30.0), |i, _| vec![i as f64]);
    assert_eq!(smooth_track(&step, &Filter::gaussian(0.1).unwrap()).unwrap_err(), SmoothError::Step);
}

/// Uniform keys keep their times, mode and TCB; non-uniform keys are resampled at the median
/// spacing as Linear keys and the result says so.
#[test]
fn uniform_kept_nonuniform_resampled() {
    let times = uniform(60, 30.0);
    let mut t = track(TrackKind::Vec3, Interpolation::Tcb, &times, |i, x| vec![x.sin(), (i % 2) as f64, 1.0]);
    t.keys[3].tension = 0.5;
    let s = smooth_track(&t, &Filter::gaussian(0.05).unwrap()).unwrap();
    assert_eq!((s.resampled, s.track.interpolation, s.track.keys[3].tension, s.keys), (None, Interpolation::Tcb, 0.5, 60));
    assert!(s.track.keys.iter().zip(&times).all(|(k, t)| k.time == *t));
    assert!(close(s.rate, 30.0, 1e-12));
    // Alternating 0/1 in y, σ = 1.5 samples: the middle keys come out near 0.5, so the curve
    // moved by about half in y.
    assert!((s.track.keys.value(30)[1] - 0.5).abs() < 0.01 && s.max_difference > 0.45, "{:?}", s.max_difference);
    // Non-uniform: spacings 0.1 and 0.2 alternating (median 0.2 of [0.1, 0.2, 0.1, 0.2, …]).
    let mut nt = vec![0.0];
    for i in 0..40 {
        nt.push(nt[i] + if i % 2 == 0 { 0.1 } else { 0.2 });
    }
    let t = track(TrackKind::Scalar, Interpolation::Tcb, &nt, |_, x| vec![2.0 * x]);
    let s = smooth_track(&t, &Filter::gaussian(0.3).unwrap()).unwrap();
    assert_eq!((s.track.interpolation, s.keys), (Interpolation::Linear, 31));
    assert!(close(s.resampled.unwrap(), 0.2, 1e-12) && close(s.rate, 5.0, 1e-12));
    // A line stays a line away from the ends (σ = 1.5 samples, radius 6).
    assert!(s.track.keys[6..25].iter().all(|k| close(k.value[0], 2.0 * k.time, 1e-12)));
}

/// The measured difference is over the curve, not only at keys: a TCB curve through alternating
/// keys overshoots between them, and smoothing to a constant measures the overshoot.
#[test]
fn difference_measured_between_keys() {
    let times = uniform(40, 10.0);
    let t = track(TrackKind::Scalar, Interpolation::Linear, &times, |i, _| vec![if i == 20 { 1.0 } else { 0.0 }]);
    let s = smooth_track(&t, &Filter::median(0.3).unwrap()).unwrap();
    assert!(s.track.keys.iter().all(|k| k.value[0] == 0.0));
    assert_eq!(s.max_difference, 1.0);
    let c = track(TrackKind::Scalar, Interpolation::Cubic, &times, |i, _| vec![if i == 20 { 1.0 } else { 0.0 }]);
    let s = smooth_track(&c, &Filter::median(0.3).unwrap()).unwrap();
    // The natural cubic spline through the spike: the curve is 1 at the key, and between keys
    // 19 and 20 it is above its keys' values (as measured, not only at keys).
    assert!(s.max_difference >= 1.0, "{}", s.max_difference);
}

/// Quaternions: keys of one rotation with alternating signs are one rotation, kept (up to the
/// first key's sign); a smoothed turn stays unit length.
#[test]
fn quaternions_stay_unit_and_continuous() {
    let h = std::f64::consts::FRAC_1_SQRT_2;
    let times = uniform(30, 30.0);
    let t = track(TrackKind::Quat, Interpolation::Slerp, &times, |i, _| if i % 2 == 0 { vec![0.0, 0.0, h, h] } else { vec![0.0, 0.0, -h, -h] });
    let s = smooth_track(&t, &Filter::butterworth(3.0, 2).unwrap()).unwrap();
    assert!(s.track.keys.iter().all(|k| k.value.iter().zip([0.0, 0.0, h, h]).all(|(a, b)| (a - b).abs() < 1e-12)));
    assert!(s.max_difference < 1e-9, "{}", s.max_difference);
    // A turn about z by 3° a key with noise: unit length, consecutive keys in one hemisphere.
    let t = track(TrackKind::Quat, Interpolation::Slerp, &times, |i, _| {
        let a = (3.0 * i as f64 + if i % 3 == 0 { 2.0 } else { 0.0 }).to_radians() / 2.0;
        let s = if i % 4 == 1 { -1.0 } else { 1.0 };
        vec![0.0, 0.0, s * a.sin(), s * a.cos()]
    });
    let s = smooth_track(&t, &Filter::gaussian(0.05).unwrap()).unwrap();
    for w in s.track.keys.windows(2) {
        let n: f64 = w[1].value.iter().map(|x| x * x).sum::<f64>();
        assert!((n - 1.0).abs() < 1e-14);
        assert!(w[0].value.iter().zip(&w[1].value).map(|(a, b)| a * b).sum::<f64>() > 0.99);
    }
    assert!(s.max_difference > 0.5 && s.max_difference < 3.0, "{}", s.max_difference);
}

/// Euler tracks are filtered per component and measured in degrees of rotation.
#[test]
fn euler_measured_in_degrees() {
    let times = uniform(30, 30.0);
    let t = track(TrackKind::Euler, Interpolation::Linear, &times, |i, _| vec![0.0, 0.0, if i == 15 { 0.1 } else { 0.0 }]);
    let s = smooth_track(&t, &Filter::median(0.1).unwrap()).unwrap();
    assert!(close(s.max_difference, 0.1f64.to_degrees(), 1e-9), "{}", s.max_difference);
    assert_eq!(s.unit(), "deg");
}

/// Bezier keys keep their times and get automatic handles.
#[test]
fn bezier_handles_become_automatic() {
    let times = uniform(20, 30.0);
    let mut t = track(TrackKind::Scalar, Interpolation::Bezier, &times, |i, _| vec![i as f64]);
    t.keys[5] = t.keys[5].clone().with_handles((HandleType::Free, HandleType::Free), vec![(-0.01, 0.3)], vec![(0.01, -0.3)]);
    let s = smooth_track(&t, &Filter::gaussian(0.05).unwrap()).unwrap();
    assert!(s.track.keys.iter().all(|k| k.handles == (HandleType::AutoClamped, HandleType::AutoClamped) && k.left.is_empty()));
}

/// Selected keys only, by hand: a spike of 9 at key 3 of seven keys at 10 Hz under a median of
/// 0.3 s (3 keys). Selecting the spike removes it (the median of 0, 9, 0) and the curve moves
/// by 9 where it was; selecting its neighbours instead changes nothing (the median of 0, 0, 9
/// is 0, of 9, 0, 0 too) and leaves the spike. Unselected keys keep their values exactly.
#[test]
fn selected_keys_by_hand() {
    let t = track(TrackKind::Scalar, Interpolation::Linear, &uniform(7, 10.0), |i, _| vec![if i == 3 { 9.0 } else { 0.0 }]);
    let median = Filter::median(0.3).unwrap();
    let s = smooth_keys(&t, &[3], &median).unwrap();
    assert_eq!(s.track.keys.iter().map(|k| k.value[0]).collect::<Vec<_>>(), [0.0; 7]);
    assert_eq!((s.max_difference, s.selected, s.keys, s.resampled), (9.0, Some(1), 7, None));
    let s = smooth_keys(&t, &[2, 4], &median).unwrap();
    assert_eq!(s.track, t);
    assert_eq!(s.max_difference, 0.0);
    assert!(matches!(smooth_keys(&t, &[7], &median), Err(SmoothError::NoKey { key: 7, keys: 7 })));
    assert!(matches!(smooth_keys(&track(TrackKind::Scalar, Interpolation::Step, &uniform(7, 10.0), |_, _| vec![0.0]), &[1], &median), Err(SmoothError::Step)));
}

/// On a jittery take (uniform keys): each selected key takes exactly the value
/// [`smooth_track`] gives it — the whole track is filtered as one signal — and every other key
/// is the original key, bit for bit (handles, TCB and all); the key times and the mode stay.
#[test]
fn selected_keys_take_the_whole_tracks_filtered_values() {
    let times = uniform(60, 30.0);
    let mut t = track(TrackKind::Vec2, Interpolation::Bezier, &times, |i, x| vec![(3.0 * x).sin() + 0.05 * ((i * 7 % 3) as f64 - 1.0), x]);
    for k in t.keys.iter_mut().step_by(7) {
        *k = k.clone().with_handles((HandleType::Free, HandleType::Free), vec![(-0.01, 0.2), (-0.01, 0.0)], vec![(0.01, -0.2), (0.01, 0.0)]);
    }
    let filter = Filter::butterworth(4.0, 2).unwrap();
    let selected: Vec<usize> = (10..=20).chain([35, 49]).collect();
    let whole = smooth_track(&t, &filter).unwrap();
    let s = smooth_keys(&t, &selected, &filter).unwrap();
    assert_eq!((s.track.interpolation, s.selected, s.resampled, s.rate), (Interpolation::Bezier, Some(13), None, whole.rate));
    for (i, (new, old)) in s.track.keys.iter().zip(&t.keys).enumerate() {
        assert_eq!(new.time, old.time);
        if selected.contains(&i) {
            assert_eq!(new.value, whole.track.keys[i].value, "key {i}: the whole track's filtered value");
            assert_ne!(new.value, old.value, "key {i}");
            assert_eq!((new.handles, &new.left, &new.right), (old.handles, &old.left, &old.right), "key {i}: handles move with the key");
        } else {
            assert_eq!(new, old, "unselected key {i}");
        }
    }
    let expected = max_difference(&TrackCurve::new(&t).unwrap(), &TrackCurve::new(&s.track).unwrap());
    assert!(s.max_difference == expected && s.max_difference > 0.01, "{}", s.max_difference);
}

/// Keys not evenly spaced: the track is resampled and filtered as [`smooth_track`] does, and a
/// selected key between the resampled times takes the filtered signal's value at its own time
/// (the resampled signal as Linear keys); the keys themselves are not resampled.
#[test]
fn selected_keys_of_uneven_keys_read_the_resampled_signal() {
    let mut nt = vec![0.0];
    for i in 0..40 {
        nt.push(nt[i] + if i % 2 == 0 { 0.1 } else { 0.2 });
    }
    let t = track(TrackKind::Scalar, Interpolation::Tcb, &nt, |i, x| vec![x.sin() + if i % 2 == 0 { 0.1 } else { -0.1 }]);
    let filter = Filter::gaussian(0.3).unwrap();
    let whole = smooth_track(&t, &filter).unwrap();
    let s = smooth_keys(&t, &[5, 6, 20], &filter).unwrap();
    assert_eq!((s.keys, s.track.interpolation, s.resampled), (41, Interpolation::Tcb, whole.resampled));
    let signal = TrackCurve::new(&whole.track).unwrap();
    let mut ev = signal.evaluator();
    for k in [5, 6, 20] {
        assert_eq!(s.track.keys.value(k)[0], ev.value_at(t.keys.time(k))[0], "key {k} at {}", t.keys.time(k));
    }
    assert_eq!(s.track.keys[7], t.keys[7]);
}

/// A selected quaternion key keeps the hemisphere it was stored in (its neighbours, which do
/// not move, see it as before), unit length.
#[test]
fn a_selected_quaternion_keeps_its_hemisphere() {
    let times = uniform(30, 30.0);
    let t = track(TrackKind::Quat, Interpolation::Slerp, &times, |i, _| {
        let a = (3.0 * i as f64).to_radians() / 2.0;
        let s = if i == 12 { -1.0 } else { 1.0 };
        vec![0.0, 0.0, s * a.sin(), s * a.cos()]
    });
    let s = smooth_keys(&t, &[11, 12], &Filter::gaussian(0.05).unwrap()).unwrap();
    for k in [11, 12] {
        let (new, old) = (&s.track.keys[k].value, &t.keys[k].value);
        assert!(new.iter().zip(old).map(|(a, b)| a * b).sum::<f64>() > 0.99, "key {k}: {new:?} against {old:?}");
        assert!((new.iter().map(|x| x * x).sum::<f64>() - 1.0).abs() < 1e-14);
    }
}
