// A BVH take to glTF (issue 30), played in three.js r187. For each .bvh in SAMPLE_DIR it
//   1. imports the file (`tangent import`) and exports the take as GLB (`tangent bake`), and
//      validates the GLB (Khronos glTF validator: no errors, no warnings but NODE_EMPTY, which
//      the joints without a mesh are);
//   2. loads it with GLTFLoader and checks the hierarchy against the project's skeleton: a node
//      per joint named after it, the child of its parent joint's node (a root: of the scene),
//      at its OFFSET, and an end site's leaf `JOINT_end` under it at the end site's offset;
//   3. plays the clip with an AnimationMixer (LoopOnce, clamped) and compares every joint's
//      and end site's world position with Tangent's own forward kinematics: `tangent eval` of
//      each joint's tracks, composed here down the skeleton (a joint's world transform is its
//      parent's times T(translation, else its offset) · R(Euler angles in Blender's order:
//      XYZ is Rz·Ry·Rx)):
//        - at every frame of the take (the export's key times) within SLACK × height;
//        - halfway between frames against the same rotations at the frames slerped (what the
//          keys mean) within SLACK × height, and against Tangent's curves there (Euler angles
//          interpolated, which quaternion keys cannot hold exactly) within the rotation errors
//          `tangent bake` reported: Σ over the joints above a point of error × distance.
// height: the rest pose's largest extent. It exits non-zero on any failure, and when no check
// passed.
// usage: node bvh_check.mjs TANGENT_BINARY SAMPLE_DIR WORK_DIR
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import * as THREE from 'three';
import { GLTFLoader } from 'three/addons/loaders/GLTFLoader.js';
import validator from 'gltf-validator';
import { eulerMatrix, matrixQuaternion, mul } from './euler.mjs';

globalThis.ProgressEvent ??= class ProgressEvent extends Event {
  constructor(type, init = {}) { super(type); Object.assign(this, init); }
};

const [tangent, sampleDir, work] = process.argv.slice(2);
fs.mkdirSync(work, { recursive: true });
// float32, relative to the skeleton's height: values round by 6e-8 relative (a chain of four
// joints about 2.4e-7), key times by 1e-7 s at 3 s, times the fastest point (the 450° hips,
// near 2 heights a second: 2e-7). The Rust tests measure the GLB at 1.3e-7 × height.
const SLACK = 1e-6;
let passed = 0;
let failed = 0;
const fail = (msg) => { failed++; console.log(`FAIL ${msg}`); };
const check = (ok, msg) => (ok ? passed++ : fail(msg));

const apply = (m, v) => m.map((row) => row[0] * v[0] + row[1] * v[1] + row[2] * v[2]);
const add = (a, b) => a.map((x, i) => x + b[i]);
const dist = (a, b) => Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]);

function quaternionMatrix(q) {
  const e = new THREE.Matrix4().makeRotationFromQuaternion(q).elements; // column-major
  return [[e[0], e[4], e[8]], [e[1], e[5], e[9]], [e[2], e[6], e[10]]];
}

const triple = (text) => text.split(',').map(Number);

/** The project's skeleton and its joints' tracks, read from the .ron Tangent wrote. */
function readProject(file) {
  const text = fs.readFileSync(file, 'utf8');
  const skeleton = text.slice(text.indexOf('skeleton: Some('));
  const joints = [...skeleton.matchAll(/\(\s*name: "([^"]*)",\s*(?:parent: Some\((\d+)\),\s*)?offset: \(([^)]*)\),\s*(?:end_site: Some\(\(([^)]*)\)\),\s*)?\)/g)].map((m) => ({
    name: m[1],
    parent: m[2] === undefined ? null : Number(m[2]),
    offset: triple(m[3]),
    end: m[4] === undefined ? null : triple(m[4]),
  }));
  const tracks = [...text.matchAll(/name: "([^"]*)",\s*kind: (\w+),\s*interpolation: \w+,(?:\s*order: (\w+),)?\s*binding: Some\(Node\(\s*animation: "[^"]*",\s*node: "([^"]*)",\s*property: (\w+)/g)];
  for (const [, name, kind, order, node, property] of tracks) {
    const joint = joints.find((j) => j.name === node);
    if (property === 'Translation' && kind === 'Vec3') joint.translation = name;
    else if (property === 'Rotation' && kind === 'Euler') joint.rotation = { name, order: order ?? 'XYZ' };
    else throw new Error(`${file}: unexpected track ${name} (${kind} ${property})`);
  }
  return joints;
}

function evalTrack(project, track, times) {
  const out = execFileSync(tangent, ['eval', project, '--track', track], { input: times.join('\n') + '\n', encoding: 'utf8' });
  return out.trim().split('\n').map((l) => l.split(' ').map(Number));
}

/** Joints' and end sites' world positions from each joint's local translation and rotation. */
function forward(joints, locals) {
  const world = [];
  const points = [];
  joints.forEach((j, i) => {
    const { t, r } = locals[i];
    const w = j.parent === null ? { t, r } : { t: add(world[j.parent].t, apply(world[j.parent].r, t)), r: mul(world[j.parent].r, r) };
    world.push(w);
    points[i] = w.t;
  });
  joints.forEach((j, i) => { if (j.end) points.push(add(world[i].t, apply(world[i].r, j.end))); });
  return points;
}

/** The point names in the order of `forward`. */
const pointNames = (joints) => [...joints.map((j) => j.name), ...joints.filter((j) => j.end).map((j) => `${j.name}_end`)];

/** For each point, the joints whose rotation moves it (its strict ancestors). */
function ancestorsOf(joints) {
  const chain = (i) => (i === null ? [] : [i, ...chain(joints[i].parent)]);
  return [...joints.map((j) => chain(j.parent)), ...joints.map((j, i) => (j.end ? chain(i) : null)).filter((c) => c !== null)];
}

function restHeight(joints) {
  const rest = forward(joints, joints.map((j) => ({ t: j.offset, r: [[1, 0, 0], [0, 1, 0], [0, 0, 1]] })));
  return Math.max(...[0, 1, 2].map((c) => Math.max(...rest.map((p) => p[c])) - Math.min(...rest.map((p) => p[c]))));
}

async function checkTake(bvh) {
  const base = path.basename(bvh, '.bvh');
  const project = path.join(work, `${base}.ron`);
  const glb = path.join(work, `${base}.glb`);
  execFileSync(tangent, ['import', bvh, '-o', project], { encoding: 'utf8' });
  const report = execFileSync(tangent, ['bake', project, '--format', 'glb', '-o', glb], { encoding: 'utf8' }).trim().split('\n');
  const errors = Object.fromEntries(report.map((l) => l.split('\t')).map((f) => [f[0], parseFloat(f[4].replace('max error ', ''))]));
  const joints = readProject(project);
  const names = pointNames(joints);
  const height = restHeight(joints);
  const slack = SLACK * height;

  const bytes = fs.readFileSync(glb);
  const result = await validator.validateBytes(new Uint8Array(bytes), { uri: glb, externalResourceFunction: () => Promise.reject(new Error('no external resources')) });
  const serious = result.issues.messages.filter((m) => m.code !== 'NODE_EMPTY');
  check(result.issues.numErrors === 0 && serious.length === 0, `${base}: glTF validator: ${JSON.stringify(serious.slice(0, 5))}`);
  const ab = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
  const gltf = await new Promise((resolve, reject) => new GLTFLoader().parse(ab, '', resolve, reject));

  // The hierarchy.
  const object = (name) => gltf.scene.getObjectByName(THREE.PropertyBinding.sanitizeNodeName(name));
  const near = (v, want) => dist([v.x, v.y, v.z], want) <= 1e-7 * Math.max(1, Math.hypot(...want));
  joints.forEach((j) => {
    const o = object(j.name);
    const parent = j.parent === null ? gltf.scene : object(joints[j.parent].name);
    check(o && o.parent === parent && near(o.position, j.offset), `${base}: joint ${j.name}: ${o ? `parent ${o.parent.name}, at ${o.position.toArray()}` : 'missing'}`);
    if (j.end) {
      const e = object(`${j.name}_end`);
      check(e && e.parent === o && e.children.length === 0 && near(e.position, j.end), `${base}: end site of ${j.name}`);
    }
  });

  // Playback.
  const clip = gltf.animations[0];
  const mixer = new THREE.AnimationMixer(gltf.scene);
  const action = mixer.clipAction(clip);
  action.setLoop(THREE.LoopOnce);
  action.clampWhenFinished = true;
  action.play();
  const rotationTrack = clip.tracks.find((t) => t.name.endsWith('.quaternion'));
  const frames = Array.from(rotationTrack.times);
  const halves = frames.slice(1).map((t, i) => (frames[i] + t) / 2);
  const played = (times) => times.map((t) => {
    // A LoopOnce action that reached its end is paused (clampWhenFinished): reset it first.
    action.reset();
    mixer.setTime(t);
    gltf.scene.updateMatrixWorld(true);
    return names.map((n) => object(n).getWorldPosition(new THREE.Vector3()).toArray());
  });
  const evaluate = (times) => joints.map((j) => ({
    t: j.translation ? evalTrack(project, j.translation, times) : null,
    r: j.rotation ? evalTrack(project, j.rotation.name, times).map((a) => eulerMatrix(a, j.rotation.order)) : null,
  }));
  const identity = [[1, 0, 0], [0, 1, 0], [0, 0, 1]];
  const fk = (values, k, rotation = (i) => values[i].r?.[k] ?? identity) =>
    forward(joints, joints.map((j, i) => ({ t: values[i].t?.[k] ?? j.offset, r: rotation(i) })));
  const worst = (a, b) => Math.max(...a.map((p, i) => dist(p, b[i])));

  // At every frame.
  const atFrames = evaluate(frames);
  const playedFrames = played(frames);
  let worstFrame = 0;
  frames.forEach((t, k) => { worstFrame = Math.max(worstFrame, worst(playedFrames[k], fk(atFrames, k))); });
  check(worstFrame <= slack, `${base}: at the frames three.js is ${worstFrame} from Tangent, more than ${slack}`);

  // Halfway between frames.
  const atHalves = evaluate(halves);
  const playedHalves = played(halves);
  const ancestors = ancestorsOf(joints);
  let [worstSlerped, worstSource, worstRatio] = [0, 0, 0];
  halves.forEach((t, k) => {
    // The rotations at the frames slerped halfway (what the keys mean), the translations
    // halfway (Linear keys, as three.js plays them).
    const slerpedPoints = fk(atHalves, k, (i) => (atFrames[i].r
      ? quaternionMatrix(matrixQuaternion(atFrames[i].r[k]).slerp(matrixQuaternion(atFrames[i].r[k + 1]), 0.5))
      : identity));
    worstSlerped = Math.max(worstSlerped, worst(playedHalves[k], slerpedPoints));
    const source = fk(atHalves, k);
    playedHalves[k].forEach((p, n) => {
      const bound = ancestors[n].reduce((s, a) => s + (joints[a].rotation ? errors[joints[a].rotation.name] : 0) * dist(source[n], source[a]), 0);
      const d = dist(p, source[n]);
      worstSource = Math.max(worstSource, d);
      worstRatio = Math.max(worstRatio, d / (bound + slack));
    });
  });
  check(worstSlerped <= slack, `${base}: halfway three.js is ${worstSlerped} from Tangent's rotations at the frames slerped, more than ${slack}`);
  check(worstRatio <= 1, `${base}: halfway three.js is ${worstRatio} times the reported rotation errors from Tangent's curves`);
  console.log(`${base}: ${joints.length} joints, ${names.length - joints.length} end sites, ${frames.length} frames, height ${height.toPrecision(4)}; ` +
    `three.js r${THREE.REVISION} from Tangent's forward kinematics: at the frames ${worstFrame.toExponential(2)} ` +
    `(${(worstFrame / height).toExponential(2)} × height), halfway ${worstSlerped.toExponential(2)} from the frames slerped and ` +
    `${worstSource.toExponential(2)} from the Euler curves (${(100 * worstRatio).toFixed(0)}% of the reported errors' bound)`);
}

for (const entry of fs.readdirSync(sampleDir).sort()) {
  if (entry.endsWith('.bvh')) await checkTake(path.join(sampleDir, entry));
}
console.log(`bvh to glTF in three.js: ${passed} passed, ${failed} failed`);
if (passed === 0) console.log('FAIL no check passed: nothing was compared');
process.exit(failed === 0 && passed > 0 ? 0 : 1);
