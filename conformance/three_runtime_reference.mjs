// Reference numbers for `tangent::runtime`'s model of three.js r187 (tests/runtime_three_reference.rs):
// what three.js itself plays of each track of a file. Each file is loaded as three.js loads it
// (AnimationClip.parse for a three.js JSON clip, GLTFLoader for glTF/GLB), and every track is
// written out with the keys three.js holds (float32 times and values, Bezier control points)
// and its interpolant's values (the interpolant GLTFLoader or the track chose, into a Float64Array
// so that no rounding is added) at the key times, between keys, and before and after them.
//
// usage (in conformance/, where three is installed):
//   node three_runtime_reference.mjs OUT_DIR NAME=FILE...
// Made by tools/three_runtime_reference.sh, which exports the demo project in each form first.
import fs from 'node:fs';
import path from 'node:path';
import * as THREE from 'three';
import { GLTFLoader } from 'three/addons/loaders/GLTFLoader.js';

globalThis.ProgressEvent ??= class ProgressEvent extends Event {
  constructor(type, init = {}) { super(type); Object.assign(this, init); }
};

const [out, ...cases] = process.argv.slice(2);
fs.mkdirSync(out, { recursive: true });

/** The clips of a file, as three.js loads them. */
async function clips(file) {
  const bytes = fs.readFileSync(file);
  if (file.endsWith('.json')) return [THREE.AnimationClip.parse(JSON.parse(bytes.toString('utf8')))];
  const buffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
  const gltf = await new GLTFLoader().parseAsync(buffer, path.dirname(path.resolve(file)) + '/');
  return gltf.animations;
}

/** Whether GLTFLoader made `track` a CUBICSPLINE track (its own interpolant; three values per key). */
const cubicSpline = (track) => track.createInterpolant.isInterpolantFactoryMethodGLTFCubicSpline === true;

/** The form Tangent's model names for `track`. */
function form(track) {
  const i = track.getInterpolation();
  if (cubicSpline(track)) return 'CubicSpline';
  if (i === THREE.InterpolateDiscrete) return 'Step';
  if (i === THREE.InterpolateLinear) return 'Linear';
  if (i === THREE.InterpolateSmooth) return 'Smooth';
  if (i === THREE.InterpolateBezier) return 'Bezier';
  throw new Error(`${track.name}: interpolation ${i}`);
}

/** Times to sample: the keys, midpoints and thirds between them, a uniform grid, and outside. */
function sampleTimes(times) {
  const t0 = times[0];
  const t1 = times[times.length - 1];
  const span = Math.max(t1 - t0, 1e-3);
  const s = new Set();
  for (let i = 0; i <= 400; i++) s.add(t0 - 0.05 * span + (1.1 * span * i) / 400);
  if (times.length <= 400) {
    for (let i = 0; i < times.length; i++) {
      s.add(times[i]);
      if (i + 1 < times.length) for (const f of [1 / 3, 0.5, 2 / 3]) s.add(times[i] + f * (times[i + 1] - times[i]));
    }
  }
  return [...s].sort((a, b) => a - b);
}

let written = 0;
for (const spec of cases) {
  const [name, file] = spec.split('=');
  const tracks = [];
  for (const clip of await clips(file)) {
    for (const track of clip.tracks) {
      // Strings and booleans are not curves.
      if (track.ValueTypeName === 'string' || track.ValueTypeName === 'bool') continue;
      const size = cubicSpline(track) ? track.getValueSize() / 3 : track.getValueSize();
      const interpolant = track.createInterpolant(new Float64Array(size));
      const at = sampleTimes(Array.from(track.times));
      const samples = [];
      for (const t of at) samples.push(...interpolant.evaluate(t));
      const settings = track.settings ?? {};
      tracks.push({
        name: track.name,
        form: form(track),
        rotation: track.ValueTypeName === 'quaternion',
        width: size,
        times: Array.from(track.times),
        values: Array.from(track.values),
        in_tangents: settings.inTangents ? Array.from(settings.inTangents) : null,
        out_tangents: settings.outTangents ? Array.from(settings.outTangents) : null,
        sample_times: at,
        samples,
      });
    }
  }
  fs.writeFileSync(path.join(out, `${name}.json`), JSON.stringify({ file: path.basename(file), three: THREE.REVISION, tracks }));
  console.log(`${name}: ${tracks.length} tracks from ${file}`);
  written += tracks.length;
}
if (written === 0) {
  console.log('no track written');
  process.exit(1);
}
