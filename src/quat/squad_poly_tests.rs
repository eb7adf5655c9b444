//! Tests of the fitted Squad polynomials against hand-checked numbers and the log/exp form.

use super::super::{normalize, squad, squad_controls, SQUAD_TOLERANCE};
use super::*;
use proptest::prelude::*;

fn z(half: f64) -> Quat {
    [0.0, 0.0, half.sin(), half.cos()]
}

fn close(a: &Quat, b: &Quat, tol: f64) -> bool {
    a.iter().zip(b).all(|(x, y)| (x - y).abs() <= tol)
}

/// `T₃ = 4x³ − 3x` and `T₄ = 8x⁴ − 8x² + 1` in powers of `x`; `x²` at five Lobatto points is
/// `(T₀ + T₂)/2`.
#[test]
fn chebyshev_machinery_by_hand() {
    let lane = |v: &[Quat]| v.iter().map(|q| q[2]).collect::<Vec<_>>();
    let unit = |k: usize, n: usize| (0..n).map(|i| if i == k { [0.0, 0.0, 1.0, 0.0] } else { [0.0; 4] }).collect::<Vec<Quat>>();
    assert_eq!(lane(&monomial(&unit(3, 4))), [0.0, -3.0, 0.0, 4.0]);
    assert_eq!(lane(&monomial(&unit(4, 5))), [1.0, 0.0, -8.0, 0.0, 8.0]);
    let squares: Vec<Quat> = (0..=4).map(|j| [0.0, 0.0, lobatto(j, 4).powi(2), 0.0]).collect();
    let want = [0.5, 0.0, 0.5, 0.0, 0.0];
    for (got, want) in lane(&chebyshev(&squares)).iter().zip(want) {
        assert!((got - want).abs() <= 4.0 * f64::EPSILON, "{got} vs {want}");
    }
    // Tail sums: 1e-3 + 1e-9 is above 1e-6, 1e-9 is not.
    let cheb = [[1.0, 0.0, 0.0, 0.0], [0.0, 1e-3, 0.0, 0.0], [0.0, 0.0, -1e-9, 0.0]];
    assert_eq!(truncation(&cheb, 1e-6), 1);
    assert_eq!(truncation(&cheb, 1e-2), 0);
}

/// The hand-checked one-axis case of [`SquadSegment`]'s tests: half-angles 0, 0.3, 0.5 at
/// times 0, 1, 2 give 0.15625 at `τ = ½`; the polynomial says so too, and ends at the keys.
#[test]
fn one_axis_by_hand() {
    let keys = [z(0.0), z(0.3), z(0.5)];
    let (a, b) = squad_controls(&keys, &[0.0, 1.0, 2.0]);
    let seg = SquadSegment::new(&keys[0], &keys[1], &a[0], &b[0]);
    let polys = SquadPolys::new(&[seg]);
    assert!(polys.degree(0).is_some(), "a gentle segment is fitted");
    let tol = SQUAD_FIT_TOLERANCE + 4.0 * f64::EPSILON;
    assert!(close(&polys.at(0, &seg, 0.5), &z(0.15625), tol));
    assert_eq!(polys.at(0, &seg, 0.0), keys[0], "a key is itself, bit for bit");
    assert!(close(&polys.at(0, &seg, 1.0), &keys[1], tol));
}

/// A segment whose outer slerp changes hemisphere jumps there: it is fitted in two pieces
/// split at the jump, each within the tolerance of the log/exp form, and the jump is kept.
#[test]
fn a_jump_is_split_and_kept() {
    // Keys 40° apart with control points pulled far the other way: P·Q crosses 0.
    let (r0, r1) = (z(0.0), z(0.35));
    let (a, b) = (normalize(&[0.9, 0.0, -0.3, 0.1]), normalize(&[-0.9, 0.1, 0.5, 0.1]));
    let seg = SquadSegment::new(&r0, &r1, &a, &b);
    let taus: Vec<f64> = (0..=1000).map(|i| f64::from(i) / 1000.0).collect();
    let changes = taus.windows(2).filter(|w| (seg.outer_cos(w[0]) < 0.0) != (seg.outer_cos(w[1]) < 0.0)).count();
    assert_eq!(changes, 1, "the case must change hemisphere once for the test to mean anything");
    let polys = SquadPolys::new(&[seg]);
    assert_eq!(polys.degree(0).map(|d| d.1), Some(2));
    let tol = SQUAD_FIT_TOLERANCE + SQUAD_TOLERANCE;
    for &tau in &taus {
        assert!(close(&polys.at(0, &seg, tau), &squad(&r0, &r1, &a, &b, tau), tol), "at {tau}");
    }
    let split = polys.spans[0].split;
    let (before, after) = (polys.at(0, &seg, split - 1e-9), polys.at(0, &seg, split + 1e-9));
    assert!(!close(&before, &after, 0.1), "{before:?} {after:?}");
}

/// Where the hemisphere changes twice, no fit is tried: the exact form, bit for bit.
#[test]
fn two_changes_keep_the_exact_form() {
    let mut r = xorshift(11);
    let mut q = move || unit([r() - 0.5, r() - 0.5, r() - 0.5, r() - 0.5]);
    let twice = (0..200_000)
        .map(|_| SquadSegment::new(&q(), &q(), &q(), &q()))
        .find(|seg| (0..1000).filter(|&i| (seg.outer_cos(f64::from(i) / 1000.0) < 0.0) != (seg.outer_cos(f64::from(i + 1) / 1000.0) < 0.0)).count() == 2)
        .expect("random segments include one whose hemisphere changes twice");
    let polys = SquadPolys::new(&[twice]);
    assert_eq!(polys.degree(0), None);
    for tau in [0.0, 0.3, 0.77, 1.0] {
        assert_eq!(polys.at(0, &twice, tau), twice.at(tau));
    }
}

/// `P·Q` exactly 0 at the key (a key orthogonal to its control point), turning negative
/// straight after: the change of hemisphere is at the very start, where a piece would be
/// too narrow to map. The segment keeps the exact form, and every sample is finite.
#[test]
fn a_change_of_hemisphere_at_the_key_keeps_the_exact_form() {
    let (r0, a) = ([0.0, 0.0, 0.0, 1.0], [1.0, 0.0, 0.0, 0.0]);
    let seg = [[0.3, 0.1, 0.0, 0.9], [-0.3, 0.1, 0.0, 0.9], [0.0, 0.3, 0.1, 0.9], [0.0, -0.3, 0.1, 0.9]]
        .into_iter()
        .flat_map(|r1| [[0.9, 0.2, 0.0, 0.1], [-0.9, 0.2, 0.0, 0.1], [0.9, 0.0, 0.3, -0.1]].map(move |b| SquadSegment::new(&r0, &unit(r1), &a, &unit(b))))
        .find(|seg| seg.outer_cos(0.0) == 0.0 && seg.outer_cos(1e-3) < 0.0)
        .expect("one of the candidates turns negative after the key");
    let polys = SquadPolys::new(&[seg]);
    assert_eq!(polys.degree(0), None);
    for tau in [0.0, 1e-300, 1e-12, 0.5, 1.0] {
        let q = polys.at(0, &seg, tau);
        assert!(q.iter().all(|v| v.is_finite()), "{q:?} at {tau}");
        assert_eq!(q, seg.at(tau));
    }
}

/// Uniform numbers in `[0, 1)` (xorshift64).
fn xorshift(seed: u64) -> impl FnMut() -> f64 {
    let mut state = 0x2545_f491_4f6c_dd1d_u64 ^ seed;
    move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state >> 11) as f64 / (1u64 << 53) as f64
    }
}

fn unit(v: [f64; 4]) -> Quat {
    normalize(&v)
}

/// Random keys as the evaluation benchmark makes them (components in ±5, `w` + 3, so steps of
/// up to about 90°): nearly every segment is fitted; steps of half a degree at degree 11 or
/// less (the large steps take 23).
#[test]
fn typical_segments_are_fitted() {
    let mut r = xorshift(0);
    let keys: Vec<Quat> = (0..1001).map(|_| unit([r() * 10.0 - 5.0, r() * 10.0 - 5.0, r() * 10.0 - 5.0, r() * 10.0 - 2.0])).collect();
    let times: Vec<f64> = (0..keys.len()).map(|i| i as f64).collect();
    let mut aligned = keys.clone();
    for i in 1..aligned.len() {
        if super::super::dot(&aligned[i - 1], &aligned[i]) < 0.0 {
            aligned[i] = super::super::neg(&aligned[i]);
        }
    }
    let (a, b) = squad_controls(&aligned, &times);
    let segs: Vec<SquadSegment> = (0..1000).map(|s| SquadSegment::new(&aligned[s], &aligned[s + 1], &a[s], &b[s])).collect();
    let polys = SquadPolys::new(&segs);
    let fitted = (0..segs.len()).filter(|&s| polys.degree(s).is_some()).count();
    assert!(fitted >= 950, "{fitted} of 1000 fitted");
    let small: Vec<SquadSegment> = (0..100)
        .map(|i| {
            let e = |k: f64| crate::euler::to_quat(&[0.3 + 0.01 * (f64::from(i) + k), -0.2, 1.1 - 0.004 * (f64::from(i) + k)], crate::euler::EulerOrder::ZYX);
            SquadSegment::new(&e(0.0), &e(1.0), &e(0.1), &e(0.9))
        })
        .collect();
    let polys = SquadPolys::new(&small);
    let degrees: Vec<_> = (0..small.len()).map(|s| polys.degree(s)).collect();
    assert!(degrees.iter().all(|d| d.is_some_and(|(d, pieces)| d <= 11 && pieces == 1)), "{degrees:?}");
}

proptest! {
    /// Against the log/exp form on random rotations and control points of every angle, at
    /// random `τ` (not the check points): within the fit's tolerance plus the exact form's,
    /// by both evaluations (with fused multiply-adds where the processor has them, and
    /// without), which agree within a few ulps.
    #[test]
    fn agrees_with_the_log_exp_form(
        r0 in prop::array::uniform4(-1.0f64..1.0), r1 in prop::array::uniform4(-1.0f64..1.0),
        a in prop::array::uniform4(-1.0f64..1.0), b in prop::array::uniform4(-1.0f64..1.0),
        tau in 0.0f64..=1.0,
    ) {
        prop_assume!([r0, r1, a, b].iter().all(|q| super::super::dot(q, q) > 1e-3));
        let (r0, r1, a, b) = (unit(r0), unit(r1), unit(a), unit(b));
        let seg = SquadSegment::new(&r0, &r1, &a, &b);
        let detected = SquadPolys::new(&[seg]);
        let plain = SquadPolys { fma: false, ..detected.clone() };
        let want = squad(&r0, &r1, &a, &b, tau);
        for polys in [&detected, &plain] {
            prop_assert!(close(&polys.at(0, &seg, tau), &want, SQUAD_FIT_TOLERANCE + SQUAD_TOLERANCE));
        }
        prop_assert!(close(&detected.at(0, &seg, tau), &plain.at(0, &seg, tau), 16.0 * f64::EPSILON));
    }

    /// Small steps (control points near the keys): the same, and fitted.
    #[test]
    fn agrees_for_small_angles(e in prop::array::uniform3(-1e-4f64..1e-4), tau in 0.0f64..=1.0) {
        let r0 = crate::euler::to_quat(&[0.3, -0.2, 1.1], crate::euler::EulerOrder::ZYX);
        let r1 = crate::euler::to_quat(&[0.3 + e[0], -0.2, 1.1 + e[1]], crate::euler::EulerOrder::ZYX);
        let a = crate::euler::to_quat(&[0.3 + e[2], -0.2 + e[0], 1.1], crate::euler::EulerOrder::ZYX);
        let seg = SquadSegment::new(&r0, &r1, &a, &r1);
        let polys = SquadPolys::new(&[seg]);
        prop_assert!(polys.degree(0).is_some());
        let (got, want) = (polys.at(0, &seg, tau), squad(&r0, &r1, &a, &r1, tau));
        prop_assert!(close(&got, &want, SQUAD_FIT_TOLERANCE + SQUAD_TOLERANCE), "{got:?} vs {want:?}");
    }
}
