// Conformance of Tangent's import (SPEC §11) with three.js r187 in Node. For each glTF, GLB
// and three.js clip JSON in SAMPLES_DIR it
//   1. imports the file with `tangent import` and reads the report (track, kind,
//      interpolation, keys, target, warnings);
//   2. loads the same file with three.js: GLTFLoader for glTF/GLB (its own interpolants:
//      GLTFCubicSplineInterpolant, slerp, discrete), AnimationClip.parse for JSON (track
//      buffers switched to Float64Array, as check.mjs does: three.js stores Float32Array by
//      default);
//   3. checks that every three.js track has its Tangent track(s) under the SPEC §11 name,
//      with the same key count and interpolation, and that every channel or track three.js
//      plays that Tangent cannot hold is named in a warning;
//   4. samples every track at 300 times inside and outside its clip with the track's
//      interpolant and compares with `tangent eval` on the imported project: within float32
//      rounding for glTF (three.js computes into a Float32Array), 1e-9 for JSON (scaled by
//      1 + |value|). Rotations are compared as unit quaternions. Tangent evaluates a Slerp or
//      Step key as the unit quaternion it stands for (SPEC §1, §8); three.js slerps the
//      stored numbers, which differs where keys are off unit length (float32 rounding: 1e-8;
//      normalized BYTE: up to 1e-3 between nearly equal keys, as its slerp takes the angle
//      from the unnormalised dot product), so three.js is given the unit keys. Bezier and
//      CUBICSPLINE rotations are interpolated from the stored components by both and
//      normalised (three.js' InterpolateBezier does not normalise: its value is);
//   5. exports each imported glTF back to GLB (`tangent bake`, the tracks going to the nodes
//      and animations they came from) and validates it with the Khronos glTF validator.
// usage: node import_check.mjs TANGENT_BINARY SAMPLES_DIR WORK_DIR
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import * as THREE from 'three';
import { GLTFLoader } from 'three/addons/loaders/GLTFLoader.js';
import validator from 'gltf-validator';

globalThis.ProgressEvent ??= class ProgressEvent extends Event {
  constructor(type, init = {}) { super(type); Object.assign(this, init); }
};

const [tangent, samples, work] = process.argv.slice(2);
fs.mkdirSync(work, { recursive: true });
const SAMPLES = 300;
const F32 = 1e-6;
const F64 = 1e-9;
let passed = 0;
let failed = 0;
const fail = (msg) => { failed++; console.log(`FAIL ${msg}`); };
const check = (ok, msg) => (ok ? passed++ : fail(msg));

/** `tangent import`: the project path, the report's tracks by name, and the warnings. */
function importFile(file) {
  const out = path.join(work, path.basename(file) + '.ron');
  const stdout = execFileSync(tangent, ['import', file, '-o', out], { encoding: 'utf8' });
  const tracks = new Map();
  const warnings = [];
  for (const line of stdout.trim().split('\n')) {
    if (line.startsWith('warning: ')) warnings.push(line.slice(9));
    else if (!line.startsWith('wrote ')) {
      const [name, kind, interpolation, keys, target] = line.split('\t');
      tracks.set(name, { name, kind, interpolation, keys: parseInt(keys), target });
    }
  }
  return { project: out, tracks, warnings };
}

function evalTrack(project, name, times) {
  const out = execFileSync(tangent, ['eval', project, '--track', name], { input: times.join('\n') + '\n', encoding: 'utf8' });
  return out.trim().split('\n').map((l) => l.split(' ').map(Number));
}

/** 240 times across the clip's keys, 30 before and 30 after. */
function sampleTimes(t0, t1) {
  const span = Math.max(t1 - t0, 0.5);
  const times = [];
  for (let i = 0; i < 30; i++) times.push(t0 - span * 0.5 + (span * 0.5) * i / 30);
  for (let i = 0; i < SAMPLES - 60; i++) times.push(t0 + (t1 - t0) * i / (SAMPLES - 61));
  for (let i = 1; i <= 30; i++) times.push(t1 + (span * 0.5) * i / 30);
  return times;
}

/** Labels as SPEC §11 and src/import name them: the name, FALLBACK<i>, NAME#i if shared. */
function labels(names, fallback) {
  return names.map((n, i) => (!n ? `${fallback}${i}` : names.filter((m) => m === n).length > 1 ? `${n}#${i}` : n));
}

/**
 * One comparison: `want` is a list of { name, track, element, normalize }: Tangent's track
 * `name` against element `element` (or all) of three.js track `track`.
 */
function compare(label, project, pairs, times, tolerance) {
  let largest = 0;
  for (const { name, track, element, normalize, unitKeys } of pairs) {
    if (unitKeys) {
      const v = Float64Array.from(track.values);
      for (let k = 0; k < v.length; k += 4) {
        const n = Math.hypot(v[k], v[k + 1], v[k + 2], v[k + 3]);
        for (let c = 0; c < 4; c++) v[k + c] /= n;
      }
      track.values = v;
    }
    const interpolant = track.createInterpolant();
    const size = track.getValueSize();
    const ours = evalTrack(project, name, times);
    let worst = { err: 0 };
    times.forEach((t, i) => {
      let theirs = Array.from(interpolant.evaluate(t));
      if (normalize) {
        const n = Math.hypot(...theirs);
        theirs = theirs.map((x) => x / n);
      }
      const want = element === undefined ? theirs.slice(0, size) : [theirs[element]];
      const got = ours[i];
      let err = want.length === got.length ? 0 : Infinity;
      for (let c = 0; c < want.length; c++) err = Math.max(err, Math.abs(Number(want[c]) - got[c]) / (1 + Math.abs(Number(want[c]))));
      if (!(err <= worst.err)) worst = { err, t, want, got };
    });
    largest = Math.max(largest, worst.err);
    check(worst.err <= tolerance, `${label}: track "${name}" off by ${worst.err.toExponential(3)} (relative) > ${tolerance} at t=${worst.t}: three.js ${worst.want} vs tangent ${worst.got}`);
  }
  console.log(`${label}: ${pairs.length} tracks at ${times.length} times, largest difference ${largest.toExponential(2)} (allowed ${tolerance})`);
}

function expectTrack(label, report, name, keys, interpolation, kind) {
  const r = report.tracks.get(name);
  if (!r) return fail(`${label}: no Tangent track "${name}" (tracks: ${[...report.tracks.keys()].join(', ')})`);
  check(r.keys === keys, `${label}: "${name}" has ${r.keys} keys, three.js ${keys}`);
  check(interpolation.includes(r.interpolation), `${label}: "${name}" is ${r.interpolation}, expected ${interpolation.join(' or ')}`);
  if (kind) check(r.kind === kind, `${label}: "${name}" is ${r.kind}, expected ${kind}`);
  return r;
}

/** A .gltf with its external buffers inlined as data URIs (Node's fetch reads no files). */
function loadableGltf(file) {
  const json = JSON.parse(fs.readFileSync(file, 'utf8'));
  for (const b of json.buffers ?? []) {
    if (b.uri && !b.uri.startsWith('data:')) {
      const bytes = fs.readFileSync(path.join(path.dirname(file), decodeURIComponent(b.uri)));
      b.uri = `data:application/octet-stream;base64,${bytes.toString('base64')}`;
    }
  }
  return json;
}

async function checkGltf(file) {
  const label = path.basename(file);
  const report = importFile(file);
  const glb = file.endsWith('.glb');
  const bytes = fs.readFileSync(file);
  let json;
  let input;
  if (glb) {
    const jsonLength = bytes.readUInt32LE(12);
    json = JSON.parse(bytes.subarray(20, 20 + jsonLength).toString('utf8'));
    input = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
  } else {
    json = loadableGltf(file);
    input = JSON.stringify(json);
  }
  const gltf = await new Promise((resolve, reject) => new GLTFLoader().parse(input, '', resolve, reject));
  const nodeLabels = labels((json.nodes ?? []).map((n) => n.name), 'node');
  const animLabels = labels((json.animations ?? []).map((a) => a.name), 'animation');
  const several = (json.animations ?? []).length > 1;
  const PATH = { translation: 'translation', rotation: 'rotation', scale: 'scale', weights: 'weights' };
  (json.animations ?? []).forEach((anim, a) => {
    const clip = gltf.animations[a];
    const prefix = several ? `${animLabels[a]}/` : '';
    const played = anim.channels.map((ch, c) => ({ ch, c })).filter(({ ch }) => ch.target.node !== undefined);
    for (const { ch, c } of anim.channels.map((ch, c) => ({ ch, c })).filter(({ ch }) => ch.target.node === undefined || !PATH[ch.target.path])) {
      check(report.warnings.some((w) => w.includes(`channel ${c}:`) && w.includes(`"${animLabels[a]}"`)), `${label}: animation ${a} channel ${c} is skipped without a warning`);
    }
    const t0 = Math.min(...clip.tracks.map((t) => t.times[0]));
    const t1 = Math.max(...clip.tracks.map((t) => t.times[t.times.length - 1]));
    const times = sampleTimes(t0, t1);
    const pairs = [];
    played.forEach(({ ch }, j) => {
      const track = clip.tracks[j];
      const sampler = anim.samplers[ch.sampler];
      const interp = sampler.interpolation ?? 'LINEAR';
      const base = `${prefix}${nodeLabels[ch.target.node]}.${ch.target.path}`;
      const expected = { STEP: ['Step'], LINEAR: ch.target.path === 'rotation' ? ['Slerp'] : ['Linear'], CUBICSPLINE: ['Bezier'] }[interp];
      if (ch.target.path === 'weights') {
        const size = track.getValueSize() / (interp === 'CUBICSPLINE' ? 3 : 1);
        for (let e = 0; e < size; e++) {
          const name = `${base}[${e}]`;
          if (expectTrack(label, report, name, track.times.length, expected, 'Scalar')) pairs.push({ name, track, element: e });
        }
      } else if (expectTrack(label, report, base, track.times.length, expected, ch.target.path === 'rotation' ? 'Quat' : 'Vec3')) {
        const rotation = ch.target.path === 'rotation';
        pairs.push({ name: base, track, normalize: rotation, unitKeys: rotation && interp !== 'CUBICSPLINE' });
      }
    });
    compare(`${label} animation ${a}`, report.project, pairs, times, F32);
  });
  // Exported back, the tracks go to their own nodes and animations: a valid glTF.
  const back = path.join(work, path.basename(file) + '.back.glb');
  execFileSync(tangent, ['bake', report.project, '--format', 'glb', '-o', back], { encoding: 'utf8' });
  const result = await validator.validateBytes(new Uint8Array(fs.readFileSync(back)), { uri: back, externalResourceFunction: () => Promise.reject(new Error('no external resources')) });
  const { numErrors, numWarnings, messages } = result.issues;
  check(numErrors === 0 && numWarnings === 0, `${label} exported back: glTF validator: ${numErrors} errors, ${numWarnings} warnings: ${JSON.stringify(messages.slice(0, 5))}`);
}

/** Clips in a three.js JSON file: one clip, a list, or an object's `animations`. */
function clipsOf(json) {
  if (Array.isArray(json)) return json;
  if (json.tracks) return [json];
  return json.animations ?? [];
}

function checkJson(file) {
  const label = path.basename(file);
  const report = importFile(file);
  const clips = clipsOf(JSON.parse(fs.readFileSync(file, 'utf8')));
  const clipLabels = labels(clips.map((c) => c.name), 'clip');
  clips.forEach((clipJson, ci) => {
    const prefix = clips.length > 1 ? `${clipLabels[ci]}/` : '';
    const clip = THREE.AnimationClip.parse(clipJson);
    const scale = 1 / (clipJson.fps || 1);
    const pairs = [];
    clip.tracks.forEach((track, i) => {
      const tj = clipJson.tracks[i]; // parse() filled in times/values for `keys` tracks
      if (track.ValueTypeName === 'string') {
        check(report.warnings.some((w) => w.includes(`track ${i} ("${track.name}")`)), `${label}: string track ${track.name} skipped without a warning`);
        return;
      }
      track.times = Float64Array.from(tj.times, (t) => t * scale);
      if (track.ValueTypeName !== 'bool') track.values = Float64Array.from(tj.values);
      if (tj.settings) {
        const scaled = (a) => Float64Array.from(a, (x, k) => (k % 2 === 0 ? x * scale : x));
        track.settings = { inTangents: scaled(tj.settings.inTangents), outTangents: scaled(tj.settings.outTangents) };
      }
      const size = track.getValueSize();
      const interp = track.getInterpolation();
      const quat = track.ValueTypeName === 'quaternion';
      const expected = { [THREE.InterpolateDiscrete]: ['Step'], [THREE.InterpolateLinear]: [quat ? 'Slerp' : 'Linear'], [THREE.InterpolateSmooth]: ['Cubic'], [THREE.InterpolateBezier]: ['Bezier'] }[interp];
      const split = size > 1 && (['number', 'bool'].includes(track.ValueTypeName) || size > 4);
      if (split) {
        for (let e = 0; e < size; e++) {
          const name = `${prefix}${track.name}[${e}]`;
          if (expectTrack(label, report, name, track.times.length, expected, 'Scalar')) pairs.push({ name, track, element: e });
        }
      } else {
        const name = `${prefix}${track.name}`;
        if (expectTrack(label, report, name, track.times.length, expected)) pairs.push({ name, track, normalize: quat, unitKeys: quat && interp !== THREE.InterpolateBezier });
      }
    });
    const t0 = Math.min(...clip.tracks.map((t) => t.times[0]));
    const t1 = Math.max(...clip.tracks.map((t) => t.times[t.times.length - 1]));
    compare(`${label} clip ${ci}`, report.project, pairs, sampleTimes(t0, t1), F64);
  });
}

for (const entry of fs.readdirSync(samples).sort()) {
  const file = path.join(samples, entry);
  if (entry.endsWith('.gltf') || entry.endsWith('.glb')) await checkGltf(file);
  else if (entry.endsWith('.json')) checkJson(file);
}
console.log(`import conformance: ${passed} passed, ${failed} failed`);
process.exit(failed === 0 && passed > 0 ? 0 : 1);
