// Conformance of Tangent's exports with the real consumers: the Khronos glTF validator and
// three.js (r187) in Node. For each export of a project it
//   1. validates every glTF/GLB (zero errors, zero warnings),
//   2. loads the JSON clip (AnimationClip.parse) and the glTF (GLTFLoader), plays them with
//      an AnimationMixer at 1,000 times, and
//   3. compares with `tangent eval` on the source project:
//        exact forms in the JSON clip within 1e-9 (track buffers switched to Float64Array, as
//        three.js' own reference scenarios do: three.js stores Float32Array by default),
//        exact forms in glTF within float32 rounding; what the export approximates within
//        the bound that was asked for (never the error the export reports about itself):
//        `--adaptive E` within E, eased TCB segments converted to InterpolateBezier keys
//        (three.js r187, loaded as Bezier tracks with the source's keys) within 1e-6
//        (docs/export.md); tracks baked at the project's frame rate are compared with the
//        source sampled here at their key times and interpolated as three.js does (linear,
//        slerp for rotations), and must have a key at least every frame.
// It exits non-zero on any failure, and when no check ran or passed.
// usage: node check.mjs TANGENT_BINARY PROJECT.ron WORK_DIR
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import * as THREE from 'three';
import { GLTFLoader } from 'three/addons/loaders/GLTFLoader.js';
import validator from 'gltf-validator';

// GLTFLoader's FileLoader reports progress with ProgressEvent, which Node does not have.
globalThis.ProgressEvent ??= class ProgressEvent extends Event {
  constructor(type, init = {}) { super(type); Object.assign(this, init); }
};

const [tangent, project, work] = process.argv.slice(2);
fs.mkdirSync(work, { recursive: true });
const SAMPLES = 1000;
let passed = 0;
let failed = 0;
const fail = (msg) => { failed++; console.log(`FAIL ${msg}`); };
const pass = () => { passed++; };

/** Runs `tangent bake`; returns the per-track report. */
function bake(format, out, extra = []) {
  const stdout = execFileSync(tangent, ['bake', project, '--format', format, '-o', out, ...extra], { encoding: 'utf8' });
  return stdout.trim().split('\n').filter((line) => line !== '').map((line) => {
    const [name, target, form, keys, err] = line.split('\t');
    return { name, target, form, keys: parseInt(keys), maxError: parseFloat(err.replace('max error ', '')) };
  });
}

/** `tangent eval` of one track at the sample times. */
function evalTrack(name, times) {
  const out = execFileSync(tangent, ['eval', project, '--track', name], { input: times.join('\n') + '\n', encoding: 'utf8' });
  return out.trim().split('\n').map((l) => l.split(' ').map(Number));
}

/**
 * Checks that F32 covers the float32 rounding of key times on this project: t·2^-24 times the
 * fastest change between samples, relative to 1 + |value|, for tracks without jumps (STEP
 * tracks jump; their samples never fall within a rounding of a key time).
 */
function speedSlack(reports) {
  const tMax = Math.max(...times.map(Math.abs));
  for (const rep of reports) {
    if (rep.form === 'STEP') continue;
    const v = truths.get(rep.name);
    let speed = 0;
    let size = 0;
    for (let i = 0; i < v.length; i++) {
      size = Math.max(size, ...v[i].map(Math.abs));
      if (i > 0) for (let c = 0; c < v[i].length; c++) speed = Math.max(speed, Math.abs(v[i][c] - v[i - 1][c]) / (times[i] - times[i - 1]));
    }
    const needed = (tMax * 2 ** -24 * speed) / (1 + size) + 4 * 2 ** -24;
    if (needed > F32 / 2) fail(`track "${rep.name}": float32 rounding of its key times may reach ${needed.toExponential(2)}, more than half the slack ${F32}`);
  }
}

function sampleTimes(report) {
  // The project's key range, read from the exports: 0 to the longest track.
  return (t0, t1) => Array.from({ length: SAMPLES }, (_, i) => t0 + (t1 - t0) * i / (SAMPLES - 1));
}

/** The value three.js gives for a track at the mixer's current time. */
function readValue(root, rep, dim) {
  const obj = root.getObjectByName(THREE.PropertyBinding.sanitizeNodeName(rep.name));
  switch (rep.target) {
    case 'Translation': return obj.position.toArray();
    case 'Scale': return obj.scale.toArray();
    case 'Rotation': return obj.quaternion.toArray();
    case 'Weights': return Array.from(obj.morphTargetInfluences).slice(0, dim);
    default: return typeof obj.value === 'number' ? [obj.value] : obj.value.toArray();
  }
}

/** The project's frame rate, from `tangent check` (not from an export). */
function projectFps() {
  const out = execFileSync(tangent, ['check', project], { encoding: 'utf8' });
  const m = / ([0-9.eE+-]+) fps/.exec(out);
  if (!m) throw new Error(`no frame rate in \`tangent check\`'s output: ${out}`);
  return Number(m[1]);
}

/**
 * Interpolation of quaternions as three.js r187's Quaternion.slerpFlat computes it: the short
 * way round, slerp, but below an angle of acos(0.9995) linear then normalised.
 */
function slerp(a, b, t) {
  let dot = a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3];
  if (a.every((x, c) => x === b[c])) return a;
  let q1 = b;
  if (dot < 0) {
    q1 = b.map((x) => -x);
    dot = -dot;
  }
  let s = 1 - t;
  if (dot < 0.9995) {
    const theta = Math.acos(dot);
    const sin = Math.sin(theta);
    s = Math.sin(s * theta) / sin;
    t = Math.sin(t * theta) / sin;
    return a.map((x, c) => x * s + q1[c] * t);
  }
  const q = a.map((x, c) => x * s + q1[c] * t);
  const f = 1 / Math.sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
  return q.map((x) => x * f);
}

/**
 * What three.js must play for a track baked at the frame rate: the source (`tangent eval`)
 * at the track's key times, interpolated linearly (slerp for rotations) at each sample time.
 * Fails the track if two keys are more than a frame apart.
 */
function bakedTruth(label, rep, keyTimes, fps) {
  const keys = Array.from(keyTimes, Number);
  // Key times are float32 in glTF: a frame plus that rounding of both ends.
  const frame = 1 / fps;
  const gap = keys.slice(1).reduce((g, t, i) => Math.max(g, t - keys[i]), 0);
  if (keys.length < 2 || gap > frame + 2 * Math.abs(keys[keys.length - 1]) * 2 ** -24 + 1e-12) {
    fail(`${label}: track "${rep.name}" (${rep.form}) has ${keys.length} keys ${gap} s apart at most, not a key every frame at ${fps} fps`);
    return null;
  }
  const at = evalTrack(rep.name, keys);
  const rotation = rep.target === 'Rotation';
  return times.map((t) => {
    if (t <= keys[0]) return at[0];
    if (t >= keys[keys.length - 1]) return at[keys.length - 1];
    let j = 0;
    while (keys[j + 1] < t) j++;
    const w = (t - keys[j]) / (keys[j + 1] - keys[j]);
    return rotation ? slerp(at[j], at[j + 1], w) : at[j].map((v, c) => v * (1 - w) + at[j + 1][c] * w);
  });
}

/** The clip's key times for a report's track (the first of its three.js tracks). */
function clipTimes(clip, rep) {
  const prefix = `${THREE.PropertyBinding.sanitizeNodeName(rep.name)}.`;
  const track = clip.tracks.find((t) => t.name.startsWith(prefix));
  return track ? track.times : [];
}

/**
 * Plays `clip` on `root` at each time and compares with `truth`. `tolerance(rep)` is
 * `[bound, slack]`: the bound asked for, absolute as the export's bound is, and the rounding
 * slack, relative to 1 + |value|.
 */
function compare(label, root, clip, reports, times, truths, tolerance) {
  const mixer = new THREE.AnimationMixer(root);
  const action = mixer.clipAction(clip);
  action.setLoop(THREE.LoopOnce);
  action.clampWhenFinished = true;
  action.play();
  const worst = new Map();
  times.forEach((t, i) => {
    mixer.setTime(t);
    for (const rep of reports) {
      const want = truths.get(rep.name)[i];
      const got = readValue(root, rep, want.length);
      let err = 0;
      for (let c = 0; c < want.length; c++) err = Math.max(err, Math.abs(got[c] - want[c]));
      if (rep.target === 'Rotation') {
        let flipped = 0;
        for (let c = 0; c < want.length; c++) flipped = Math.max(flipped, Math.abs(got[c] + want[c]));
        err = Math.min(err, flipped);
      }
      const [bound, slack] = tolerance(rep);
      const allowed = bound + slack * (1 + Math.max(...want.map(Math.abs)));
      if (!(err <= allowed)) {
        const prev = worst.get(rep.name);
        if (!prev || err > prev.err) worst.set(rep.name, { err, t, allowed, got, want });
      }
    }
  });
  for (const rep of reports) {
    const w = worst.get(rep.name);
    if (w) fail(`${label}: track "${rep.name}" (${rep.form}) off by ${w.err.toExponential(3)} > ${w.allowed.toExponential(3)} at t=${w.t}: three.js ${w.got} vs tangent ${w.want}`);
    else pass();
  }
}

/** A scene graph for the JSON clip: an object per track, as docs/export.md describes. */
function sceneFor(reports, truths) {
  const root = new THREE.Object3D();
  for (const rep of reports) {
    const dim = truths.get(rep.name)[0].length;
    let obj;
    if (rep.target === 'Weights') {
      obj = new THREE.Mesh();
      obj.morphTargetInfluences = new Array(dim).fill(0);
    } else {
      obj = new THREE.Object3D();
      if (rep.target === 'Property') obj.value = dim === 1 ? 0 : dim === 2 ? new THREE.Vector2() : dim === 3 ? new THREE.Vector3() : new THREE.Vector4();
    }
    obj.name = THREE.PropertyBinding.sanitizeNodeName(rep.name);
    root.add(obj);
  }
  return root;
}

// Float32 slack for glTF, relative to 1 + |value|: stored values, tangents and three.js'
// Float32Array results each round by 2^-24 (6e-8) relative, and key times by
// t·2^-24 (2.4e-7 s at 4 s), which moves a value by its speed times that. The demo's fastest
// smooth track (height, 11.9 per second against values up to 2.8) gives 7.4e-7 from the times
// and under 2e-7 from the values: 4e-6 covers that four times over. `speedSlack` below
// measures the time term on the project checked and fails if 4e-6 would not cover it.
const F32 = 4e-6;
// docs/export.md: eased TCB segments become InterpolateBezier keys within 1e-6 unless
// --adaptive E asks for another bound. three.js stops its Newton solve of the Bezier's time at
// |x(s) − t| < 1e-10, a value error of the slope times that: 1e-8 covers slopes to 100.
const CONVERT_BOUND = 1e-6;
const NEWTON = 1e-8;
const fps = projectFps();
const cases = [
  { format: 'json', args: [], name: 'json-30fps' },
  { format: 'json', args: ['--three-before-r187'], name: 'json-before-r187' },
  { format: 'json', args: ['--adaptive', '1e-4'], name: 'json-adaptive', bound: 1e-4 },
  { format: 'gltf', args: [], name: 'gltf-30fps' },
  { format: 'gltf', args: ['--adaptive', '1e-4'], name: 'gltf-adaptive', bound: 1e-4 },
  { format: 'gltf', args: ['--adaptive', '1e-4', '--adaptive-linear'], name: 'gltf-adaptive-linear', bound: 1e-4 },
  { format: 'glb', args: ['--adaptive', '1e-3'], name: 'glb-adaptive', bound: 1e-3 },
];

let truths = null;
let times = null;
const keyCounts = new Map();
for (const c of cases) {
  const out = path.join(work, `${c.name}.${c.format}`);
  const reports = bake(c.format, out, c.args);
  if (reports.length === 0) {
    fail(`${c.name}: the export reported no tracks`);
    continue;
  }
  if (!truths) {
    const json = JSON.parse(fs.readFileSync(out, 'utf8'));
    const t1 = json.duration;
    times = sampleTimes(reports)(0, t1);
    truths = new Map(reports.map((r) => [r.name, evalTrack(r.name, times)]));
    speedSlack(reports);
  }
  // A track baked at the frame rate (no --adaptive) is compared with the source interpolated
  // between its key times; everything else with the source itself.
  const caseTruths = new Map(truths);
  const fixedRate = (rep) => rep.form === 'baked' && c.bound === undefined;
  const bytes = fs.readFileSync(out);
  if (c.format === 'json') {
    const json = JSON.parse(bytes.toString('utf8'));
    const clip = THREE.AnimationClip.parse(json);
    clip.tracks.forEach((track, i) => {
      track.times = Float64Array.from(json.tracks[i].times);
      track.values = Float64Array.from(json.tracks[i].values);
      const settings = json.tracks[i].settings;
      if (settings) track.settings = { inTangents: Float64Array.from(settings.inTangents), outTangents: Float64Array.from(settings.outTangents) };
    });
    // Bezier tracks must load as three.js r187 InterpolateBezier tracks with their own keys.
    reports.forEach((rep, i) => {
      if (rep.form !== 'BEZIER') return;
      const track = clip.tracks[i];
      if (track.getInterpolation() === THREE.InterpolateBezier && track.times.length === rep.keys) pass();
      else fail(`${c.name}: track "${rep.name}" loads with interpolation ${track.getInterpolation()} and ${track.times.length} keys, not InterpolateBezier with ${rep.keys}`);
    });
    for (const rep of reports.filter(fixedRate)) caseTruths.set(rep.name, bakedTruth(c.name, rep, clipTimes(clip, rep), fps));
    const exact = new Set(['STEP', 'LINEAR']);
    // BEZIER: exact conversions (reported error 0) within the Newton solve's slack; one that
    // added keys (eased TCB, or fitted with --adaptive) within the bound asked for (the report
    // only picks which: a false 0 makes the check stricter). Baked: within --adaptive's bound,
    // or (at the frame rate) the interpolated source within 1e-9.
    const tolerance = (rep) => {
      if (exact.has(rep.form)) return [0, 1e-9];
      if (rep.form === 'BEZIER') return [rep.maxError > 0 ? c.bound ?? CONVERT_BOUND : 0, NEWTON];
      return [c.bound ?? 0, 1e-9];
    };
    compare(c.name, sceneFor(reports, truths), clip, reports.filter((r) => caseTruths.get(r.name)), times, caseTruths, tolerance);
  } else {
    const result = await validator.validateBytes(new Uint8Array(bytes), { uri: out, externalResourceFunction: () => Promise.reject(new Error('no external resources')) });
    const { numErrors, numWarnings, messages } = result.issues;
    if (numErrors === 0 && numWarnings === 0) pass();
    else fail(`${c.name}: glTF validator: ${numErrors} errors, ${numWarnings} warnings: ${JSON.stringify(messages.slice(0, 5))}`);
    const ab = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
    const gltf = await new Promise((resolve, reject) => new GLTFLoader().parse(c.format === 'glb' ? ab : bytes.toString('utf8'), '', resolve, reject));
    const clip = gltf.animations[0];
    for (const rep of reports.filter(fixedRate)) caseTruths.set(rep.name, bakedTruth(c.name, rep, clipTimes(clip, rep), fps));
    // Adaptive export fits Bezier keys (CUBICSPLINE) or bakes within the bound asked for;
    // three.js must play them within it (plus float32 rounding). Everything else (exact
    // forms, and tracks baked at the frame rate against the interpolated source): float32.
    const fitted = (rep) => rep.form === 'baked' || (rep.form === 'CUBICSPLINE' && rep.maxError > 0);
    const tolerance = (rep) => [fitted(rep) ? c.bound ?? 0 : 0, F32];
    compare(c.name, gltf.scene, clip, reports.filter((r) => caseTruths.get(r.name)), times, caseTruths, tolerance);
  }
  keyCounts.set(c.name, reports.reduce((n, r) => n + r.keys, 0));
}
// Cubic adaptive export against linear at the same bound (issue: at least 10× fewer keys).
const cubicKeys = keyCounts.get('gltf-adaptive');
const linearKeys = keyCounts.get('gltf-adaptive-linear');
if (linearKeys >= 10 * cubicKeys) pass();
else fail(`adaptive export at 1e-4: ${cubicKeys} fitted keys vs ${linearKeys} linear keys, not 10× fewer`);
console.log(`adaptive export at 1e-4: ${cubicKeys} keys fitted (CUBICSPLINE), ${linearKeys} keys linear (${(linearKeys / cubicKeys).toFixed(1)}× fewer)`);
console.log(`conformance: ${passed} passed, ${failed} failed`);
if (passed === 0) console.log('FAIL no check passed: nothing was compared');
process.exit(failed === 0 && passed > 0 ? 0 : 1);
