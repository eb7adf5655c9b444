// Export keeps every turn (issue 29): Euler tracks exported as quaternions must turn as far in
// three.js r187 as in Tangent. For each project of PROJECT_DIR below (a 720° spin, a tilted
// 450° spin) and each export (GLB and three.js JSON; at the frame rate, at 1.5 fps where frames
// turn 180° and more, and with --adaptive) it
//   1. exports with `tangent bake` and validates the GLB (Khronos glTF validator: no errors,
//      no warnings but NODE_EMPTY, which the animated nodes without a mesh are),
//   2. loads it in three.js (GLTFLoader; AnimationClip.parse as it comes, Float32Array
//      buffers), plays it with an AnimationMixer at 4,001 times 0.5 ms apart, and
//   3. sums the angles between consecutive orientations: the accumulated turn must be the
//      project's (720°, 450°) within 0.5°, and
//   4. compares each orientation with `tangent eval` of the Euler track, its angles turned into
//      a matrix here in Blender's order (XYZ: R = Rz·Ry·Rx) and into a quaternion by three.js:
//      `--adaptive E` within E (radians, the bound asked for: --angle given as E in degrees);
//      a plain export of the Bezier (smooth) track, written as edited, within the angle its
//      report states; a Linear track's plain export at the frame rate against the
//      source evaluated at the export's key times and slerped between them (three.js'
//      playback of such keys), with a key at least every frame. Slack for float32 (values and
//      key times): SLACK below.
// It exits non-zero on any failure, and when no check passed.
// usage: node turns_check.mjs TANGENT_BINARY PROJECT_DIR WORK_DIR
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import * as THREE from 'three';
import { GLTFLoader } from 'three/addons/loaders/GLTFLoader.js';
import validator from 'gltf-validator';
import { eulerMatrix, matrixQuaternion } from './euler.mjs';

globalThis.ProgressEvent ??= class ProgressEvent extends Event {
  constructor(type, init = {}) { super(type); Object.assign(this, init); }
};

const [tangent, projectDir, work] = process.argv.slice(2);
fs.mkdirSync(work, { recursive: true });
const projects = [
  { file: 'spin720.ron', track: 'spin', turn: 720 },
  { file: 'tilted450.ron', track: 'tilted', turn: 450 },
];
const exportsOf = [
  { format: 'glb', args: [], name: 'glb-fps' },
  // 1.5 frames per second: the 720° spin turns 240° a frame, which slerp would play as 120°
  // backwards: keys are added.
  { format: 'glb', args: ['--fps', '1.5'], fps: 1.5, name: 'glb-1.5fps' },
  // --angle: the same bound as an angle in degrees (rotations take --angle, not --adaptive's E).
  { format: 'glb', args: ['--adaptive', '1e-3', '--angle', String((1e-3 * 180) / Math.PI)], bound: 1e-3, name: 'glb-adaptive-1e-3' },
  { format: 'glb', args: ['--adaptive', '0.1', '--angle', String((0.1 * 180) / Math.PI)], bound: 0.1, name: 'glb-adaptive-0.1' },
  { format: 'glb', args: ['--adaptive', '1e-3', '--angle', String((1e-3 * 180) / Math.PI), '--adaptive-linear'], bound: 1e-3, name: 'glb-adaptive-linear' },
  { format: 'json', args: [], name: 'json-fps' },
  { format: 'json', args: ['--fps', '1.5'], fps: 1.5, name: 'json-1.5fps' },
  { format: 'json', args: ['--adaptive', '1e-3', '--angle', String((1e-3 * 180) / Math.PI)], bound: 1e-3, name: 'json-adaptive-1e-3' },
  { format: 'json', args: ['--adaptive', '0.1', '--angle', String((0.1 * 180) / Math.PI)], bound: 0.1, name: 'json-adaptive-0.1' },
];
const STEPS = 4000;
const TURN_TOLERANCE = 0.5; // degrees
// float32, in radians: quaternion components round by 6e-8 (2.4e-7 rad of turn), key times by
// t·2^-24 ≤ 1.2e-7 s at 2 s, times the fastest turn (the eased 450° spin peaks near 6 rad/s:
// 7e-7 rad). 4e-6 covers both four times over.
const SLACK = 4e-6;
let passed = 0;
let failed = 0;
const fail = (msg) => { failed++; console.log(`FAIL ${msg}`); };
const pass = () => { passed++; };

/** Blender's Euler: the first letter applied first, `XYZ` → R = Rz·Ry·Rx; as a quaternion. */
function eulerQuaternion(angles, order) {
  return matrixQuaternion(eulerMatrix(angles, order));
}

/** The angle in radians between two rotations, 2·atan2(|vec(a⁻¹b)|, |w|): exact near 0. */
function angleBetween(a, b) {
  const d = a.clone().invert().multiply(b);
  return 2 * Math.atan2(Math.hypot(d.x, d.y, d.z), Math.abs(d.w));
}

function evalTrack(project, track, times) {
  const out = execFileSync(tangent, ['eval', project, '--track', track], { input: times.join('\n') + '\n', encoding: 'utf8' });
  return out.trim().split('\n').map((l) => l.split(' ').map(Number));
}

function projectFps(project) {
  const m = / ([0-9.eE+-]+) fps/.exec(execFileSync(tangent, ['check', project], { encoding: 'utf8' }));
  return Number(m[1]);
}

async function load(format, file, trackName) {
  const bytes = fs.readFileSync(file);
  if (format === 'json') {
    const clip = THREE.AnimationClip.parse(JSON.parse(bytes.toString('utf8')));
    const root = new THREE.Object3D();
    const obj = new THREE.Object3D();
    obj.name = THREE.PropertyBinding.sanitizeNodeName(trackName);
    root.add(obj);
    return { root, clip, obj };
  }
  const result = await validator.validateBytes(new Uint8Array(bytes), { uri: file, externalResourceFunction: () => Promise.reject(new Error('no external resources')) });
  const serious = result.issues.messages.filter((m) => m.code !== 'NODE_EMPTY');
  if (result.issues.numErrors === 0 && serious.length === 0) pass();
  else fail(`${file}: glTF validator: ${JSON.stringify(serious.slice(0, 5))}`);
  const ab = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
  const gltf = await new Promise((resolve, reject) => new GLTFLoader().parse(ab, '', resolve, reject));
  return { root: gltf.scene, clip: gltf.animations[0], obj: gltf.scene.getObjectByName(THREE.PropertyBinding.sanitizeNodeName(trackName)) };
}

for (const p of projects) {
  const project = path.join(projectDir, p.file);
  const order = /order:\s*([XYZ]{3})/.exec(fs.readFileSync(project, 'utf8'))[1];
  const fps = projectFps(project);
  for (const e of exportsOf) {
    const label = `${p.file} ${e.name}`;
    const out = path.join(work, `${path.basename(p.file, '.ron')}-${e.name}.${e.format}`);
    const report = execFileSync(tangent, ['bake', project, '--format', e.format, '-o', out, ...e.args], { encoding: 'utf8' }).trim();
    const { root, clip, obj } = await load(e.format, out, p.track);
    const keyTimes = Array.from(clip.tracks[0].times);
    const mixer = new THREE.AnimationMixer(root);
    const action = mixer.clipAction(clip);
    action.setLoop(THREE.LoopOnce);
    action.clampWhenFinished = true;
    action.play();
    const t1 = clip.duration;
    const times = Array.from({ length: STEPS + 1 }, (_, i) => (t1 * i) / STEPS);
    const source = evalTrack(project, p.track, times).map((a) => eulerQuaternion(a, order));
    // What the export must play: the source, or at the frame rate the source at the key times
    // slerped between them.
    let truth = source;
    let bound = e.bound;
    // A plain export of a smooth (Bezier) Euler track goes out as edited: the fewest keys
    // within the angle the report states ("as edited, … within A°"), against the source.
    const asEdited = /as edited, .* within ([0-9.eE+-]+)°/.exec(report);
    if (bound === undefined && asEdited) bound = (Number(asEdited[1]) * Math.PI) / 180;
    else if (bound === undefined) {
      bound = 0;
      const gap = keyTimes.slice(1).reduce((g, t, i) => Math.max(g, t - keyTimes[i]), 0);
      const rate = e.fps ?? fps;
      if (gap > 1 / rate + 1e-6) fail(`${label}: keys up to ${gap} s apart, not one every frame at ${rate} fps`);
      const atKeys = evalTrack(project, p.track, keyTimes).map((a) => eulerQuaternion(a, order));
      truth = times.map((t) => {
        const after = keyTimes.findIndex((k) => k > t);
        const j = after === -1 ? keyTimes.length - 2 : Math.max(after - 1, 0);
        const w = Math.min(Math.max((t - keyTimes[j]) / (keyTimes[j + 1] - keyTimes[j]), 0), 1);
        return atKeys[j].clone().slerp(atKeys[j + 1], w);
      });
    }
    let turned = 0;
    let worst = 0;
    let worstSource = 0;
    let worstAt = 0;
    let last = null;
    times.forEach((t, i) => {
      mixer.setTime(t);
      const now = obj.quaternion.clone().normalize();
      if (last) turned += angleBetween(last, now);
      last = now;
      const off = angleBetween(now, truth[i]);
      if (off > worst) [worst, worstAt] = [off, t];
      worstSource = Math.max(worstSource, angleBetween(now, source[i]));
    });
    const degrees = (turned * 180) / Math.PI;
    const form = report.split('\t')[2];
    console.log(`${label}: ${form}, ${keyTimes.length} keys; three.js turns ${degrees.toFixed(6)}°; ` +
      `${worst.toExponential(2)} rad from ${e.bound === undefined && !asEdited ? 'the source slerped between the keys' : 'the source'} (allowed ${(bound + SLACK).toExponential(2)}), ${worstSource.toExponential(2)} rad from the source`);
    if (Math.abs(degrees - p.turn) <= TURN_TOLERANCE) pass();
    else fail(`${label}: three.js turns ${degrees}°, not ${p.turn}° (±${TURN_TOLERANCE}°)`);
    if (worst <= bound + SLACK) pass();
    else fail(`${label}: ${worst} rad from tangent eval at t=${worstAt}, more than ${bound} + ${SLACK}`);
  }
}
console.log(`turns: ${passed} passed, ${failed} failed`);
if (passed === 0) console.log('FAIL no check passed: nothing was compared');
process.exit(failed === 0 && passed > 0 ? 0 : 1);
