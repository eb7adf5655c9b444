//! Rotations of Euler angles computed here, apart from the crate's `euler.rs`, for tests that
//! measure Euler tracks as rotations: a quaternion from the three angles and the angle between
//! two rotations. Checked against scipy's `Rotation.from_euler` (`tests/reference/euler_scipy.json`,
//! from `tools/scipy_euler_reference.py`) by [`check_against_scipy`].
//!
//! Convention (Blender's, SPEC §13): the order names the axis applied first first, so `"XYZ"`
//! is `R = Rz(z)·Ry(y)·Rx(x)`, the quaternion `q_z·q_y·q_x` with `q_axis(θ) = (sin(θ/2)·axis,
//! cos(θ/2))` — scipy's `from_euler("xyz", [x, y, z])` (lower case: extrinsic).

#![allow(dead_code)]

/// Hamilton product `a·b` of `[x, y, z, w]` quaternions.
pub fn mul(a: [f64; 4], b: [f64; 4]) -> [f64; 4] {
    let [ax, ay, az, aw] = a;
    let [bx, by, bz, bw] = b;
    [aw * bx + ax * bw + ay * bz - az * by, aw * by - ax * bz + ay * bw + az * bx, aw * bz + ax * by - ay * bx + az * bw, aw * bw - ax * bx - ay * by - az * bz]
}

/// The rotation of angles `[x, y, z]` (radians about X, Y, Z) applied in `order` (`"ZXY"`: Z
/// first), as a unit quaternion `[x, y, z, w]`.
pub fn quat(angles: [f64; 3], order: &str) -> [f64; 4] {
    let mut q = [0.0, 0.0, 0.0, 1.0];
    for axis in order.chars() {
        let i = match axis.to_ascii_uppercase() {
            'X' => 0,
            'Y' => 1,
            'Z' => 2,
            other => panic!("axis {other}"),
        };
        let half = angles[i] / 2.0;
        let mut r = [0.0, 0.0, 0.0, half.cos()];
        r[i] = half.sin();
        // Applied after what came before: on the left.
        q = mul(r, q);
    }
    q
}

/// The angle in degrees of the rotation taking `a` to `b`: `2·atan2(|v|, |w|)` of `a⁻¹·b`.
pub fn angle_deg(a: [f64; 4], b: [f64; 4]) -> f64 {
    let r = mul([-a[0], -a[1], -a[2], a[3]], b);
    2.0 * (r[0] * r[0] + r[1] * r[1] + r[2] * r[2]).sqrt().atan2(r[3].abs()).to_degrees()
}

/// [`quat`] agrees with scipy on every case of `tests/reference/euler_scipy.json` (up to sign,
/// within 1e-12); returns how many cases were checked.
pub fn check_against_scipy() -> usize {
    let path = format!("{}/tests/reference/euler_scipy.json", env!("CARGO_MANIFEST_DIR"));
    let data: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    let floats = |v: &serde_json::Value| -> Vec<f64> { v.as_array().unwrap().iter().map(|x| x.as_f64().unwrap()).collect() };
    let mut checked = 0;
    for (order, cases) in data["orders"].as_object().unwrap() {
        for case in cases.as_array().unwrap() {
            let a = floats(&case["angles"]);
            let want = floats(&case["quat"]);
            let got = quat([a[0], a[1], a[2]], order);
            let same = (0..4).all(|i| (got[i] - want[i]).abs() < 1e-12) || (0..4).all(|i| (got[i] + want[i]).abs() < 1e-12);
            assert!(same, "{order} {a:?}: {got:?} against scipy's {want:?}");
            checked += 1;
        }
    }
    checked
}
