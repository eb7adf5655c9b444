//! Unit tests of the easing equations: hand-checked values and derivatives against differences.
use super::*;
use Easing::{In, InOut, Out};
use KeyInterpolation::*;

const P: EaseParams = EaseParams { back: DEFAULT_BACK, amplitude: DEFAULT_AMPLITUDE, period: DEFAULT_PERIOD };

fn close(a: f64, b: f64, tol: f64) -> bool {
    (a - b).abs() <= tol * (1.0 + b.abs())
}

#[test]
fn auto_is_out_for_back_bounce_elastic_and_in_for_the_others() {
    for mode in KeyInterpolation::ALL {
        let want = if matches!(mode, Back | Bounce | Elastic) { Out } else { In };
        assert_eq!(Easing::Auto.resolved(mode), want, "{mode:?}");
        assert!([In, Out, InOut].iter().all(|&e| e.resolved(mode) == e));
        assert_eq!(mode.is_easing(), !matches!(mode, Bezier | Constant | Linear));
    }
    assert_eq!((Expo.label(), Sine.label(), InOut.label()), ("Exponential", "Sinusoidal", "Ease In and Out"));
}

#[test]
fn hand_checked_values() {
    let (b, c, d) = (2.0, 8.0, 4.0);
    let s = DEFAULT_BACK;
    let cases = [
        (Quad, In, 2.0, b + c / 4.0), // Quad In at half time: b + c/4
        (Quad, Out, 2.0, b + 3.0 * c / 4.0),
        (Cubic, In, 2.0, b + c / 8.0),
        (Quart, In, 2.0, b + c / 16.0),
        (Quint, Out, 2.0, b + c * 31.0 / 32.0),
        (Linear, Easing::Auto, 1.0, b + c / 4.0),
        (Constant, Easing::Auto, 3.0, b),
        (Sine, Out, 2.0, b + c * 0.5f64.sqrt()),
        (Circ, In, 2.0, b + c * (1.0 - 0.75f64.sqrt())),
        (Back, In, 2.0, b + c * 0.25 * ((s + 1.0) * 0.5 - s)),
        (Expo, In, 2.0, b + c * (1.0 / 32.0 - 1.0 / 1024.0) / (1.0 - 1.0 / 1024.0)), // rescaled 2^-5
        (Bounce, Out, d * 1.5 / 2.75, b + c * 0.75),                                 // the top of the first bounce
        (Bounce, Out, d * 2.25 / 2.75, b + c * 0.9375),
        (Bounce, Out, d * 2.625 / 2.75, b + c * 0.984375),
        (Bounce, Out, d / 2.75, b + c), // where the bounces touch the end value
        (Bounce, InOut, d / 2.0, b + c / 2.0),
    ];
    for (mode, e, t, want) in cases {
        assert!(close(ease(mode, e, P, t, b, c, d), want, 1e-14), "{mode:?} {e:?} {t}");
    }
    // Back 0 is used as 0 (a cubic), not replaced by 1.70158 as Blender 2.7 did.
    assert_eq!(ease(Back, In, EaseParams { back: 0.0, ..P }, 1.0, b, c, d), b + c / 64.0);
    for mode in KeyInterpolation::ALL.into_iter().filter(|&m| m.is_easing()) {
        if mode != Bounce {
            assert!(close(ease(mode, InOut, P, d / 2.0, b, c, d), b + c / 2.0, 1e-12), "{mode:?}");
        }
        for e in Easing::ALL {
            assert!(close(ease(mode, e, P, 0.0, b, c, d), b, 1e-15) && close(ease(mode, e, P, d, b, c, d), b + c, 1e-15), "{mode:?} {e:?}");
        }
    }
}

#[test]
fn elastic_zero_period_and_amplitude_rules() {
    let (b, c, d) = (1.0, 2.0, 2.0);
    // Period 0 is 0.3 × duration (In and Out: 0.45 ×).
    for (e, factor) in [(In, 0.3), (Out, 0.3), (InOut, 0.45)] {
        for amplitude in [0.0, 0.5, 2.0, 5.0] {
            let zero = EaseParams { back: 0.0, amplitude, period: 0.0 };
            for k in 1..40 {
                let t = d * k as f64 / 40.0;
                let (x, y) = (ease(Elastic, e, zero, t, b, c, d), ease(Elastic, e, EaseParams { period: d * factor, ..zero }, t, b, c, d));
                assert!(close(x, y, 1e-13), "{e:?} A {amplitude} t {t}: {x} {y}");
            }
        }
    }
    // Amplitude 0: no wave past the blend (the first P/4 of Out): exactly b + c; b at t → 0.
    let (period, flat) = (0.5, EaseParams { back: 0.0, amplitude: 0.0, period: 0.5 });
    for k in 1..=20 {
        assert_eq!(ease(Elastic, Out, flat, period / 4.0 + (d - period / 4.0) * k as f64 / 20.0, b, c, d), b + c);
    }
    assert!(close(ease(Elastic, Out, flat, 1e-12, b, c, d), b, 1e-10));
    // Change 0 with an amplitude still oscillates around b (as in Blender); with 0 it is flat.
    let wave = EaseParams { amplitude: 1.0, ..flat };
    assert!((ease(Elastic, Out, wave, 0.3, b, 0.0, d) - b).abs() > 1e-3);
    assert_eq!(ease(Elastic, Out, flat, 0.3, b, 0.0, d), b);
}

#[test]
fn finite_everywhere_and_zero_duration_is_the_key() {
    let tuples = [(P.back, P.amplitude, P.period), (0.0, 0.0, 0.0), (-3.0, 1e-300, -1e-300), (1e6, 1e300, 1e300), (1.0, -2.0, 1e-12)];
    let params = tuples.map(|(back, amplitude, period)| EaseParams { back, amplitude, period });
    for (mode, e, p) in KeyInterpolation::ALL.into_iter().flat_map(|m| Easing::ALL.into_iter().flat_map(move |e| params.map(|p| (m, e, p)))) {
        for (b, c, d) in [(0.0, 1.0, 1.0), (5.0, -1e6, 1e-9), (-2.0, 0.0, 3.0), (1.0, 1e-300, 1e9)] {
            assert_eq!((ease(mode, e, p, 0.5, b, c, 0.0), ease_derivative(mode, e, p, 0.5, b, c, 0.0)), (b, 0.0));
            for u in [-1.0, 0.0, 1e-12, 0.25, 0.5, 0.75, 1.0 - 1e-12, 1.0, 2.0] {
                let (v, s) = (ease(mode, e, p, u * d, b, c, d), ease_derivative(mode, e, p, u * d, b, c, d));
                assert!(v.is_finite() && s.is_finite(), "{mode:?} {e:?} {p:?} u {u} d {d}: {v} {s}");
            }
        }
    }
}

#[test]
fn derivative_matches_a_central_difference() {
    let (b, c, d, h) = (0.5, -2.5, 1.5, 1e-6);
    let mut checked = 0;
    for p in [(1.2, 4.0, 0.4), (0.0, 1.0, 0.0), (2.0, 0.0, 0.3)].map(|(back, amplitude, period)| EaseParams { back, amplitude, period }) {
        for (mode, e) in KeyInterpolation::ALL.into_iter().flat_map(|m| Easing::ALL.map(|e| (m, e))) {
            for k in 0..40 {
                let t = d * (k as f64 + 0.37) / 40.0;
                let numeric = (ease(mode, e, p, t + h, b, c, d) - ease(mode, e, p, t - h, b, c, d)) / (2.0 * h);
                let analytic = ease_derivative(mode, e, p, t, b, c, d);
                assert!(close(numeric, analytic, 1e-5), "{mode:?} {e:?} {p:?} t {t}: {numeric} vs {analytic}");
                checked += 1;
            }
        }
    }
    assert_eq!(checked, 3 * 13 * 4 * 40);
}

#[test]
fn end_point_slopes_are_one_sided_and_circ_is_capped() {
    let (b, c, d) = (0.0, 1.0, 1.0);
    let slope = |mode, e, p, t| ease_derivative(mode, e, p, t, b, c, d);
    // Quad In starts flat and ends at 2c/d; Out the reverse.
    assert_eq!((slope(Quad, In, P, 0.0), slope(Quad, In, P, d), slope(Quad, Out, P, 0.0)), (0.0, 2.0, 2.0));
    // Circ In is vertical at its end: the capped slope, about 2900 c/d.
    assert!((2800.0..3000.0).contains(&slope(Circ, In, P, d)));
    // Elastic Out at t = 0 (value b by Blender's early return): the formula's right slope.
    let (p, h) = (EaseParams { back: 0.0, amplitude: 0.0, period: 0.2 }, 1e-7);
    let numeric = (ease(Elastic, Out, p, h, b, c, d) - b) / h;
    assert!(close(numeric, slope(Elastic, Out, p, 0.0), 1e-4), "{numeric}");
}
