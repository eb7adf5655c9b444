//! Euler angles: hand-checked matrices, quaternions and decompositions; the filter by hand and
//! as a property over random keys in every order. (The comparison with scipy and Blender is
//! `tests/euler_reference.rs`.)

use super::*;

const H: f64 = std::f64::consts::FRAC_1_SQRT_2;
const HALF_PI: f64 = std::f64::consts::FRAC_PI_2;

fn assert_mat(got: &Matrix, want: &Matrix, eps: f64) {
    assert!(mat_distance(got, want) <= eps, "{got:?} vs {want:?}");
}

/// XYZ applies X first: 90° about X then 90° about Y takes the X axis to −Z (X is unmoved
/// by the first, the second turns it to −Z) and Y to X… by hand, `Ry(90°)·Rx(90°)`.
/// YXZ with the same angles applies Y first: `Rx(90°)·Ry(90°)`.
#[test]
fn matrices_by_hand() {
    assert_mat(&to_matrix(&[0.0, 0.0, HALF_PI], EulerOrder::XYZ), &[[0.0, -1.0, 0.0], [1.0, 0.0, 0.0], [0.0, 0.0, 1.0]], 1e-15);
    assert_mat(&to_matrix(&[HALF_PI, HALF_PI, 0.0], EulerOrder::XYZ), &[[0.0, 1.0, 0.0], [0.0, 0.0, -1.0], [-1.0, 0.0, 0.0]], 1e-15);
    assert_mat(&to_matrix(&[HALF_PI, HALF_PI, 0.0], EulerOrder::YXZ), &[[0.0, 0.0, 1.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]], 1e-15);
    // ZYX with 90° about Z then 90° about X (Y is 0): Rx(90°)·Rz(90°).
    assert_mat(&to_matrix(&[HALF_PI, 0.0, HALF_PI], EulerOrder::ZYX), &[[0.0, -1.0, 0.0], [0.0, 0.0, -1.0], [1.0, 0.0, 0.0]], 1e-15);
}

/// 90° about Z is `[0, 0, sin 45°, cos 45°]` in every order; 360° about Y is the identity
/// with the opposite sign (`cos 180° = −1`).
#[test]
fn quaternions_by_hand() {
    for order in EulerOrder::ALL {
        let q = to_quat(&[0.0, 0.0, HALF_PI], order);
        assert!(q.iter().zip([0.0, 0.0, H, H]).all(|(a, b)| (a - b).abs() < 1e-15), "{order}: {q:?}");
        let q = to_quat(&[0.0, std::f64::consts::TAU, 0.0], order);
        assert!(q.iter().zip([0.0, 0.0, 0.0, -1.0]).all(|(a, b)| (a - b).abs() < 1e-15), "{order}: {q:?}");
    }
}

/// The quaternion and the matrix say the same rotation, for every order.
#[test]
fn quaternion_matches_matrix() {
    for order in EulerOrder::ALL {
        for angles in [[0.3, -1.2, 2.5], [4.0, 0.1, -6.5], [-2.9, 1.5, 0.7]] {
            assert_mat(&quat::to_matrix(&to_quat(&angles, order)), &to_matrix(&angles, order), 1e-15);
        }
    }
}

/// Angles inside the principal ranges come back as they went in; any angles come back as a
/// triple of the same rotation.
#[test]
fn decomposition_round_trips() {
    for order in EulerOrder::ALL {
        let angles = [0.4, -0.9, 1.1];
        let back = from_matrix(&to_matrix(&angles, order), order);
        assert!(back.iter().zip(angles).all(|(a, b)| (a - b).abs() < 1e-14), "{order}: {back:?}");
        for angles in [[2.9, -2.2, 1.7], [7.0, 3.0, -9.0], [0.0, std::f64::consts::PI, 0.0]] {
            let m = to_matrix(&angles, order);
            let back = from_matrix(&m, order);
            assert_mat(&to_matrix(&back, order), &m, 1e-14);
            let [_, j, _] = order.axes();
            assert!(back[j].abs() <= HALF_PI, "{order}: {back:?}");
        }
    }
}

/// Gimbal lock: XYZ with the middle angle 90° turns X and Z about the same world axis, so
/// `Rz(0.5)·Ry(90°)·Rx(0.3) = Ry(90°)·Rx(0.3 − 0.5)`: the decomposition is `(−0.2, 90°, 0)`.
#[test]
fn gimbal_lock_by_hand() {
    let back = from_matrix(&to_matrix(&[0.3, HALF_PI, 0.5], EulerOrder::XYZ), EulerOrder::XYZ);
    assert!((back[0] + 0.2).abs() < 1e-14 && (back[1] - HALF_PI).abs() < 1e-14 && back[2] == 0.0, "{back:?}");
    for order in EulerOrder::ALL {
        let [i, j, k] = order.axes();
        for middle in [HALF_PI, -HALF_PI] {
            let mut angles = [0.0; 3];
            (angles[i], angles[j], angles[k]) = (0.7, middle, -1.9);
            let m = to_matrix(&angles, order);
            let back = from_matrix(&m, order);
            assert_eq!(back[k], 0.0, "{order}");
            assert_mat(&to_matrix(&back, order), &m, 1e-14);
        }
    }
}

#[test]
fn flipped_is_the_same_rotation() {
    for order in EulerOrder::ALL {
        let angles = [0.3, -1.1, 2.4];
        let f = flipped(&angles, order);
        assert_mat(&to_matrix(&f, order), &to_matrix(&angles, order), 1e-15);
        // For XYZ by hand: x + π, π − y, z + π.
        if order == EulerOrder::XYZ {
            assert_eq!(f, [0.3 + PI, PI + 1.1, 2.4 + PI]);
        }
    }
}

#[test]
fn order_names() {
    assert_eq!(EulerOrder::parse("yxz"), Some(EulerOrder::YXZ));
    assert_eq!(EulerOrder::parse("XYY"), None);
    assert_eq!(EulerOrder::all_names(), "XYZ, XZY, YXZ, YZX, ZXY, ZYX");
}

/// By hand: Z from 3.0 to −3.0 is a step of −6.0 that is really +0.283 (−3.0 + 2π = 3.283);
/// a key past gimbal lock decomposed as `(π, π − 1.6, π)` is `(0, 1.6, 0)` flipped, 0.1 from
/// the key before instead of 2π.
#[test]
fn filter_by_hand() {
    let mut keys = vec![[0.0, 0.0, 0.0], [0.0, 0.0, 3.0], [0.0, 0.0, -3.0], [0.0, 0.0, -3.0 + 2.0 * TAU]];
    assert_eq!(filter(&mut keys, EulerOrder::XYZ), 2);
    assert_eq!(keys[2], [0.0, 0.0, -3.0 + TAU]);
    assert_eq!(keys[3], [0.0, 0.0, -3.0 + TAU]);
    let mut keys = vec![[0.0, 1.5, 0.0], [PI, PI - 1.6, PI]];
    assert_eq!(filter(&mut keys, EulerOrder::XYZ), 1);
    assert!((keys[1][0]).abs() < 1e-15 && (keys[1][1] - 1.6).abs() < 1e-15 && keys[1][2].abs() < 1e-15, "{:?}", keys[1]);
    // A turn kept as it is: nothing changes.
    let mut keys = vec![[0.0, 0.0, 0.0], [0.0, 0.0, 3.0], [0.0, 0.0, 6.0], [0.0, 0.0, 9.0]];
    assert_eq!(filter(&mut keys, EulerOrder::ZYX), 0);
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(256))]
    /// Random keys (principal angles of random rotations, as a per-key conversion makes them,
    /// and raw angles up to ±4 turns) in every order: after the filter every key has the same
    /// rotation matrix within 1e-12 and no step exceeds π on any axis.
    #[test]
    fn filter_keeps_rotations_and_steps(raw in proptest::collection::vec(proptest::array::uniform3(-25.0f64..25.0), 2..40), order_i in 0usize..6, principal in proptest::bool::ANY) {
        let order = EulerOrder::ALL[order_i];
        let before: Vec<Angles> = if principal { raw.iter().map(|a| from_matrix(&to_matrix(a, order), order)).collect() } else { raw };
        let mut after = before.clone();
        filter(&mut after, order);
        for (b, a) in before.iter().zip(&after) {
            proptest::prop_assert!(mat_distance(&to_matrix(b, order), &to_matrix(a, order)) <= 1e-12, "{:?} → {:?}", b, a);
        }
        for w in after.windows(2) {
            for c in 0..3 {
                proptest::prop_assert!((w[1][c] - w[0][c]).abs() <= PI + 1e-12, "{:?}", w);
            }
        }
        CHECKED.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    }
}

static CHECKED: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

/// The property above really ran its cases (proptest may reject none here, so all 256).
#[test]
fn filter_property_ran() {
    filter_keeps_rotations_and_steps();
    assert!(CHECKED.load(std::sync::atomic::Ordering::Relaxed) >= 256);
}
