// Conformance of Tangent's exports with the real consumers: the Khronos glTF validator and
// three.js (r187) in Node. For each export of a project it
//   1. validates every glTF/GLB (zero errors, zero warnings),
//   2. loads the JSON clip (AnimationClip.parse) and the glTF (GLTFLoader), plays them with
//      an AnimationMixer at 1,000 times, and
//   3. compares with `tangent eval` on the source project:
//        exact forms in the JSON clip within 1e-9 (track buffers switched to Float64Array, as
//        three.js' own reference scenarios do: three.js stores Float32Array by default),
//        exact forms in glTF within float32 rounding, baked tracks within the error the
//        export reports (or the adaptive bound) plus that rounding, InterpolateBezier tracks
//        (three.js r187) within 1e-8 and loaded as Bezier tracks with the source's keys.
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
  return stdout.trim().split('\n').map((line) => {
    const [name, target, form, keys, err] = line.split('\t');
    return { name, target, form, keys: parseInt(keys), maxError: parseFloat(err.replace('max error ', '')) };
  });
}

/** `tangent eval` of one track at the sample times. */
function evalTrack(name, times) {
  const out = execFileSync(tangent, ['eval', project, '--track', name], { input: times.join('\n') + '\n', encoding: 'utf8' });
  return out.trim().split('\n').map((l) => l.split(' ').map(Number));
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

/** Plays `clip` on `root` at each time and compares with `truth`. */
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
      const scale = 1 + Math.max(...want.map(Math.abs));
      const allowed = tolerance(rep) * scale;
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

const F32 = 4e-6;
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
  if (!truths) {
    const json = JSON.parse(fs.readFileSync(out, 'utf8'));
    const t1 = json.duration;
    times = sampleTimes(reports)(0, t1);
    truths = new Map(reports.map((r) => [r.name, evalTrack(r.name, times)]));
  }
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
    const exact = new Set(['STEP', 'LINEAR']);
    // BEZIER: three.js stops its Newton solve at |x(s) − t| < 1e-10, a value error of at most
    // the slope times that; eased TCB segments fitted with extra keys add their reported error.
    const tolerance = (rep) => (exact.has(rep.form) ? 1e-9 : rep.form === 'BEZIER' ? rep.maxError * 1.001 + 1e-8 : (c.bound ?? rep.maxError) * 1.001 + 1e-9);
    compare(c.name, sceneFor(reports, truths), clip, reports, times, truths, tolerance);
  } else {
    const result = await validator.validateBytes(new Uint8Array(bytes), { uri: out, externalResourceFunction: () => Promise.reject(new Error('no external resources')) });
    const { numErrors, numWarnings, messages } = result.issues;
    if (numErrors === 0 && numWarnings === 0) pass();
    else fail(`${c.name}: glTF validator: ${numErrors} errors, ${numWarnings} warnings: ${JSON.stringify(messages.slice(0, 5))}`);
    const ab = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
    const gltf = await new Promise((resolve, reject) => new GLTFLoader().parse(c.format === 'glb' ? ab : bytes.toString('utf8'), '', resolve, reject));
    const clip = gltf.animations[0];
    // Adaptive export fits Bezier keys (CUBICSPLINE) within the bound: those report their
    // measured error, which three.js must also stay within (plus float32 rounding).
    const fitted = (rep) => rep.form === 'baked' || (rep.form === 'CUBICSPLINE' && rep.maxError > 0);
    compare(c.name, gltf.scene, clip, reports, times, truths, (rep) => (fitted(rep) ? (c.bound ?? rep.maxError) * 1.001 + F32 : F32));
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
process.exit(failed === 0 ? 0 : 1);
