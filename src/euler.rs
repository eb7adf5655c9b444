//! Euler angles as Blender keys them (SPEC §13): `[x, y, z]` radians about the X, Y and Z
//! axes, applied in an [`EulerOrder`]; their rotation matrix and quaternion, the angles of a
//! rotation, the other triples of the same rotation, and the Euler filter.
//!
//! - **Order.** `XYZ` applies X first: `R = Rz(z)·Ry(y)·Rx(x)` acting on column vectors, and
//!   in general `R = R_last·R_middle·R_first`. This is Blender's `rotation_mode` and scipy's
//!   `Rotation.from_euler("xyz", [x, y, z])` (lowercase: extrinsic axes).
//! - **Equivalent triples.** The same rotation has the triples with any angle ±2πk, and the
//!   flipped triple: first-applied + π, middle: π − angle, last-applied + π
//!   (`R_k(c+π)·R_j(π−b)·R_i(a+π) = R_k(c)·R_j(b)·R_i(a)` because a half turn about an axis
//!   reverses the two other axes: `R_k(π)·R_j(θ) = R_j(−θ)·R_k(π)`, and
//!   `R_k(π)·R_j(π)·R_i(π) = I` for three distinct axes).
//! - **Decomposition** ([`from_matrix`]) gives Blender's `mat3_normalized_to_eulO`'s angles
//!   (the middle from `atan2` against a hypotenuse, accurate near ±π/2; at gimbal lock the
//!   last angle 0 and the first the whole turn about the shared axis), with the first angle
//!   solved from the rest so the triple holds its matrix to rounding even near the pole.
//! - **The filter** ([`nearest_equivalent`], [`filter`]) picks for each key the equivalent
//!   triple nearest the previous key: per axis the ±2πk nearest it (so no step exceeds π),
//!   of the plain and the flipped triple the one with the smaller sum of steps (as Blender's
//!   `mat3_normalized_to_compatible_eul` chooses between its two solutions).

use std::f64::consts::{PI, TAU};

use serde::{Deserialize, Serialize};

use crate::quat::{self, Quat};

/// Angles `[x, y, z]` in radians about the X, Y and Z axes.
pub type Angles = [f64; 3];
/// A rotation matrix, row-major, acting on column vectors.
pub type Matrix = [[f64; 3]; 3];

/// Which axis is applied first, second and third, named as Blender names them: the first
/// letter is applied first (`XYZ`: `R = Rz·Ry·Rx`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[allow(clippy::upper_case_acronyms)]
pub enum EulerOrder {
    #[default]
    XYZ,
    XZY,
    YXZ,
    YZX,
    ZXY,
    ZYX,
}

impl EulerOrder {
    pub const ALL: [EulerOrder; 6] = [Self::XYZ, Self::XZY, Self::YXZ, Self::YZX, Self::ZXY, Self::ZYX];

    /// The axes `[first, middle, last]` applied (0 = X, 1 = Y, 2 = Z).
    #[must_use]
    pub const fn axes(self) -> [usize; 3] {
        match self {
            Self::XYZ => [0, 1, 2],
            Self::XZY => [0, 2, 1],
            Self::YXZ => [1, 0, 2],
            Self::YZX => [1, 2, 0],
            Self::ZXY => [2, 0, 1],
            Self::ZYX => [2, 1, 0],
        }
    }

    /// Whether `axes()` is an even permutation of X, Y, Z (XYZ, YZX, ZXY): the decomposition's
    /// signs depend on it.
    #[must_use]
    pub const fn is_even(self) -> bool {
        matches!(self, Self::XYZ | Self::YZX | Self::ZXY)
    }

    /// The order's name, `"XYZ"`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Self::XYZ => "XYZ",
            Self::XZY => "XZY",
            Self::YXZ => "YXZ",
            Self::YZX => "YZX",
            Self::ZXY => "ZXY",
            Self::ZYX => "ZYX",
        }
    }

    /// The order named `name` (case-insensitive).
    #[must_use]
    pub fn parse(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|o| o.name().eq_ignore_ascii_case(name.trim()))
    }

    /// `XYZ, XZY, YXZ, YZX, ZXY, ZYX`: for error messages.
    #[must_use]
    pub fn all_names() -> String {
        Self::ALL.map(Self::name).join(", ")
    }
}

impl std::fmt::Display for EulerOrder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// The rotation matrix of one axis (0 = X, 1 = Y, 2 = Z) by `angle`.
#[must_use]
pub fn axis_matrix(axis: usize, angle: f64) -> Matrix {
    let (s, c) = angle.sin_cos();
    let (j, k) = ((axis + 1) % 3, (axis + 2) % 3);
    let mut m = [[0.0; 3]; 3];
    m[axis][axis] = 1.0;
    m[j][j] = c;
    m[k][k] = c;
    m[k][j] = s;
    m[j][k] = -s;
    m
}

/// `a·b`.
#[must_use]
pub fn mat_mul(a: &Matrix, b: &Matrix) -> Matrix {
    let mut m = [[0.0; 3]; 3];
    for (r, row) in m.iter_mut().enumerate() {
        for (c, v) in row.iter_mut().enumerate() {
            *v = (0..3).map(|i| a[r][i] * b[i][c]).sum();
        }
    }
    m
}

/// The largest difference between two matrices' elements.
#[must_use]
pub fn mat_distance(a: &Matrix, b: &Matrix) -> f64 {
    a.iter().flatten().zip(b.iter().flatten()).map(|(x, y)| (x - y).abs()).fold(0.0, f64::max)
}

/// `R = R_last(angle)·R_middle(angle)·R_first(angle)`.
#[must_use]
pub fn to_matrix(angles: &Angles, order: EulerOrder) -> Matrix {
    let [i, j, k] = order.axes();
    mat_mul(&axis_matrix(k, angles[k]), &mat_mul(&axis_matrix(j, angles[j]), &axis_matrix(i, angles[i])))
}

/// The unit quaternion `q_last·q_middle·q_first` (apply first, then middle, then last), with
/// `q_axis(θ) = (sin(θ/2)·axis, cos(θ/2))`. Its sign follows the half angles, so angles 2π
/// apart give opposite quaternions (the same rotation).
#[must_use]
pub fn to_quat(angles: &Angles, order: EulerOrder) -> Quat {
    let axis = |a: usize| {
        let (s, c) = (0.5 * angles[a]).sin_cos();
        let mut q = [0.0, 0.0, 0.0, c];
        q[a] = s;
        q
    };
    let [i, j, k] = order.axes();
    quat::mul(&quat::mul(&axis(k), &axis(j)), &axis(i))
}

/// The angles of a rotation matrix in `order`, with the middle angle in `[−π/2, π/2]` and the
/// others in `(−π, π]` (Blender's `mat3_normalized_to_eulO`'s first solution, scipy's
/// `as_euler`).
///
/// With `(i, j, k)` = (first, middle, last) and `s = +1` for even orders, `−1` for odd:
/// `R[k][i] = −s·sin b`, `R[k][j] = s·cos b·sin a`, `R[k][k] = cos b·cos a`,
/// `R[j][i] = s·cos b·sin c`, `R[i][i] = cos b·cos c`. The middle angle
/// `b = atan2(−s·R[k][i], hypot(R[k][k], R[k][j]))` is accurate to the last bit even at ±π/2;
/// the last `c = atan2(s·R[j][i], R[i][i])` (0 at gimbal lock, `cos b < 16ε`, as Blender and
/// scipy). Near the pole both of `c`'s arguments are tiny and `c` loses digits, so the first
/// angle is not read from the matrix alike but solved from what remains once `b` and `c` are
/// undone, `R_i(a) = R_j(−b)·R_k(−c)·R`: `a = atan2(s·M[k][j], M[j][j])`. The triple then gives
/// back the matrix to rounding (1e-15) wherever the rotation is, where reading `a` directly
/// is off by 1e-8 a billionth of a radian from the pole.
#[must_use]
pub fn from_matrix(m: &Matrix, order: EulerOrder) -> Angles {
    let [i, j, k] = order.axes();
    let s = if order.is_even() { 1.0 } else { -1.0 };
    let cos_b = m[k][k].hypot(m[k][j]);
    let b = (-s * m[k][i]).atan2(cos_b);
    let c = if cos_b > 16.0 * f64::EPSILON { (s * m[j][i]).atan2(m[i][i]) } else { 0.0 };
    let rest = mat_mul(&axis_matrix(j, -b), &mat_mul(&axis_matrix(k, -c), m));
    let mut out = [0.0; 3];
    out[i] = (s * rest[k][j]).atan2(rest[j][j]);
    out[j] = b;
    out[k] = c;
    out
}

/// The angles of a quaternion's rotation in `order` (as [`from_matrix`]).
#[must_use]
pub fn from_quat(q: &Quat, order: EulerOrder) -> Angles {
    from_matrix(&quat::to_matrix(&quat::normalize(q)), order)
}

/// The flipped triple of the same rotation: first-applied + π, middle π − angle,
/// last-applied + π.
#[must_use]
pub fn flipped(angles: &Angles, order: EulerOrder) -> Angles {
    let [i, j, k] = order.axes();
    let mut out = *angles;
    out[i] += PI;
    out[j] = PI - out[j];
    out[k] += PI;
    out
}

/// `x ± 2πk` nearest `near`: within π of it.
#[must_use]
pub fn wrap_near(x: f64, near: f64) -> f64 {
    x + TAU * ((near - x) / TAU).round()
}

/// The triple of `angles`' rotation nearest `previous`: per axis the ±2πk nearest it, of the
/// plain and the flipped triple the one with the smaller sum of absolute steps (the plain one
/// on a tie). Every step to `previous` is then at most π.
#[must_use]
pub fn nearest_equivalent(angles: &Angles, previous: &Angles, order: EulerOrder) -> Angles {
    let near = |a: &Angles| -> (Angles, f64) {
        let w = [0, 1, 2].map(|c| wrap_near(a[c], previous[c]));
        let d = (0..3).map(|c| (w[c] - previous[c]).abs()).sum();
        (w, d)
    };
    let (plain, d_plain) = near(angles);
    let (flip, d_flip) = near(&flipped(angles, order));
    if d_flip < d_plain {
        flip
    } else {
        plain
    }
}

/// The Euler filter on a run of keys' angles: each key from the second on replaced by its
/// triple nearest the (already filtered) key before it ([`nearest_equivalent`]). Each key
/// keeps its rotation; returns how many keys changed.
pub fn filter(values: &mut [Angles], order: EulerOrder) -> usize {
    let mut changed = 0;
    for i in 1..values.len() {
        let new = nearest_equivalent(&values[i], &values[i - 1], order);
        if new != values[i] {
            values[i] = new;
            changed += 1;
        }
    }
    changed
}

#[cfg(test)]
#[path = "euler_tests.rs"]
mod tests;
