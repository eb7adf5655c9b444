// Euler angles as Tangent and Blender mean them, for the conformance checks that compare
// three.js with Tangent's Euler tracks (turns_check.mjs, bvh_check.mjs): one axis's matrix,
// the product, an order's matrix (the first letter applied first: `XYZ` is R = Rz·Ry·Rx on
// column vectors) and its quaternion in three.js.
import * as THREE from 'three';

/** Rotation matrix of one axis (0 = X, 1 = Y, 2 = Z), row-major, acting on column vectors. */
export function axisMatrix(axis, angle) {
  const c = Math.cos(angle);
  const s = Math.sin(angle);
  const j = (axis + 1) % 3;
  const k = (axis + 2) % 3;
  const m = [[0, 0, 0], [0, 0, 0], [0, 0, 0]];
  m[axis][axis] = 1;
  m[j][j] = c;
  m[k][k] = c;
  m[k][j] = s;
  m[j][k] = -s;
  return m;
}

/** The product `a·b` of two 3×3 matrices. */
export const mul = (a, b) => a.map((row) => [0, 1, 2].map((c) => row[0] * b[0][c] + row[1] * b[1][c] + row[2] * b[2][c]));

/** Blender's Euler: the first letter applied first, `XYZ` → R = Rz·Ry·Rx. */
export function eulerMatrix(angles, order) {
  const [i, j, k] = [...order].map((letter) => 'XYZ'.indexOf(letter));
  return mul(axisMatrix(k, angles[k]), mul(axisMatrix(j, angles[j]), axisMatrix(i, angles[i])));
}

/** A rotation matrix as a three.js quaternion. */
export function matrixQuaternion(r) {
  const m = new THREE.Matrix4().set(r[0][0], r[0][1], r[0][2], 0, r[1][0], r[1][1], r[1][2], 0, r[2][0], r[2][1], r[2][2], 0, 0, 0, 0, 1);
  return new THREE.Quaternion().setFromRotationMatrix(m);
}
