// three.js clip JSON test files for Tangent's import (SPEC.md section 11), written by
// three.js r187 itself (AnimationClip.toJSON), for what character_clip.json does not cover:
// every interpolation (Discrete, Linear, Smooth, Bezier with tangents), bool, colour,
// a string track (skipped), a number track with several values per key, a Bezier
// quaternion, keys not starting at 0; a list of two clips; and a clip in the older forms
// AnimationClip.parse still reads (`fps`, `keys`).
//
// Run from conformance/ (where three is installed):
//   node ../tools/three_clip_samples.mjs ../tests/import-samples
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

// three from the current directory's node_modules (conformance/), as this file is elsewhere.
const require = createRequire(path.join(process.cwd(), 'package.json'));
const THREE = await import(pathToFileURL(path.join(path.dirname(require.resolve('three')), 'three.module.js')).href);

const out = process.argv[2] ?? '../tests/import-samples';
fs.mkdirSync(out, { recursive: true });

/** Bezier control points a third of the way, sloped, per key and component: [t, v] pairs. */
function tangents(times, values, size, slope) {
  const ins = [];
  const outs = [];
  for (let k = 0; k < times.length; k++) {
    const before = k > 0 ? times[k] - times[k - 1] : times[1] - times[0];
    const after = k + 1 < times.length ? times[k + 1] - times[k] : before;
    for (let c = 0; c < size; c++) {
      const v = values[k * size + c];
      const m = slope(k, c);
      // Handle lengths differ per component and side (0.2 to 0.45 of the segment).
      const l = before * (0.2 + 0.05 * ((k + c) % 4));
      const r = after * (0.45 - 0.05 * ((k + 2 * c) % 4));
      ins.push(times[k] - l, v - m * l);
      outs.push(times[k] + r, v + m * r);
    }
  }
  return { inTangents: ins, outTangents: outs };
}

function bezierTrack(Type, name, times, values, slope) {
  const track = new Type(name, times, values, THREE.InterpolateBezier);
  track.settings = tangents(times, values, values.length / times.length, slope);
  return track;
}

const q = (x, y, z, w) => new THREE.Quaternion(x, y, z, w).normalize().toArray();
const showcase = new THREE.AnimationClip('Showcase', -1, [
  new THREE.VectorKeyframeTrack('Box.position', [0.2, 0.5, 1.3, 1.6, 2.5], [0, 0, 0, 1, 2, 0, 3, -1, 1, 2.5, 0.5, -2, 4, 0, 0], THREE.InterpolateSmooth),
  new THREE.VectorKeyframeTrack('Box.scale', [0, 1, 2], [1, 1, 1, 2, 0.5, 1, 1, 1, 3], THREE.InterpolateDiscrete),
  new THREE.QuaternionKeyframeTrack('Box.quaternion', [0, 0.8, 2.2], [...q(0, 0, 0, 1), ...q(0.4, 0.2, -0.1, 0.9), ...q(-0.5, 0.6, 0.3, 0.2)]),
  new THREE.QuaternionKeyframeTrack('Spin.quaternion', [0.5, 1.5], [...q(0, 1, 0, 1), ...q(1, 0, 0, 1)], THREE.InterpolateDiscrete),
  bezierTrack(THREE.NumberKeyframeTrack, 'Box.material.opacity', [0, 0.7, 1.9, 3], [1, 0.2, 0.8, 0], (k) => [0, -1.5, 0.4, 0][k]),
  bezierTrack(THREE.VectorKeyframeTrack, 'Box.material.map.offset', [0.1, 1, 2.4], [0, 0, 0.5, 1, -0.25, 2], (k, c) => (c ? 0.8 : -0.3) * (k - 1)),
  bezierTrack(THREE.VectorKeyframeTrack, 'Tint.value', [0, 1.2, 2], [0, 0.5, 1, 1, 1, 0, 0.5, 0.25, 0.5, 0.5, 0.5, 0], (k, c) => 0.3 * c - 0.2 * k),
  bezierTrack(THREE.QuaternionKeyframeTrack, 'Bend.quaternion', [0, 1, 2], [...q(0, 0, 0, 1), ...q(0.3, 0.1, 0, 0.95), ...q(0.2, 0.5, 0.1, 0.8)], (k, c) => 0.1 * (c - k)),
  new THREE.BooleanKeyframeTrack('Box.visible', [0, 0.9, 1.8], [true, false, true]),
  new THREE.ColorKeyframeTrack('Lamp.color', [0, 1, 3], [1, 0, 0, 0, 1, 0, 0.2, 0.4, 1]),
  new THREE.NumberKeyframeTrack('Face.morphTargetInfluences', [0, 1, 2], [0, 0.5, 1, 1, 0.25, 0, 0.5, 0.5, 0.5]),
  new THREE.StringKeyframeTrack('Box.name', [0, 1], ['a', 'b']),
]);
const write = (name, json) => {
  fs.writeFileSync(path.join(out, name), JSON.stringify(json));
  console.log('wrote', path.join(out, name));
};
write('three_all_interpolations.json', THREE.AnimationClip.toJSON(showcase));

const walk = new THREE.AnimationClip('Walk', -1, [new THREE.VectorKeyframeTrack('Hips.position', [0, 1], [0, 0, 0, 0, 1, 0])]);
const wave = new THREE.AnimationClip('Wave', -1, [
  new THREE.NumberKeyframeTrack('Arm.rotation[z]', [0, 0.5, 1], [0, 1.2, 0], THREE.InterpolateSmooth),
  new THREE.VectorKeyframeTrack('Hips.position', [0, 2], [0, 0, 0, 1, 0, 0]),
]);
write('three_two_clips.json', [THREE.AnimationClip.toJSON(walk), THREE.AnimationClip.toJSON(wave)]);

// The older forms: frames with `fps` (times divide by it) and `keys: [{time, value}]`.
const legacy = THREE.AnimationClip.toJSON(new THREE.AnimationClip('Frames', -1, [
  bezierTrack(THREE.NumberKeyframeTrack, 'Door.rotation[y]', [0, 12, 30], [0, 1.5, 1.2], (k) => [0.1, 0, -0.05][k]),
]));
legacy.fps = 24;
legacy.tracks.push({ name: 'Door.position', type: 'vector', keys: [{ time: 0, value: [0, 0, 0] }, { time: 6 }, { time: 24, value: [1, 0, 2] }, { time: 48, value: [1, 1, 2] }] });
write('three_legacy_fps_keys.json', legacy);
