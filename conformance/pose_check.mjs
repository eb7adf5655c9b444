// The body of a glTF or FBX import (SPEC §14, issue 42) against three.js r187, and its
// export. For each glTF and GLB in the sample folders, and each of its animations (imported
// alone: `tangent import FILE --animation NAME` when it has several), it
//   1. validates the file with the Khronos glTF validator (no errors);
//   2. says whether the import should have a skeleton (one animation imported, a default
//      scene with a hierarchy — some node with a child — and a node of it moved by a
//      translation, rotation or scale channel) and checks that `tangent pose` agrees (it
//      refuses a project without one);
//   3. where there is one: the joints are the default scene's nodes, each once, named as the
//      import names them (`NAME`, `node<i>`, `NAME#i`), each after its parent (three.js'
//      parent of the node's object);
//   4. loads the file with GLTFLoader, plays the clip with an AnimationMixer (LoopOnce,
//      clamped: the last value held after the end, as Tangent holds it) at 24 times across
//      the clip and one after it, calls updateMatrixWorld, and compares every node's
//      matrixWorld position with `tangent pose` of the imported project, within
//      TOLERANCE × the scene's size (the largest extent over x, y, z of the nodes' rest
//      positions, 1 if they all coincide). three.js reads node transforms from the JSON as
//      doubles and interpolates keys into a Float32Array; Tangent reads them as float32 (as
//      the gltf crate does; the sample's numbers are float32 values, so both start alike);
//   5. exports the project (`tangent bake --format glb`) and checks the GLB (checkExport):
//      valid, its nodes exactly the skeleton's joints, each name once (a track imported from
//      glTF goes to its joint's node, not to a node of its own), besides the helper nodes of a
//      joint with FBX pivots (`JOINT_pivot`, `JOINT_scaling`: ancestors of the joint's node,
//      which holds the joint's world transform; not compared themselves), and played in three.js
//      r187 every node where `tangent pose` puts the joint, within TOLERANCE × the size (the
//      largest extent over x, y, z of the GLB's rest pose and the poses compared). That holds
//      the rest rotations and scales of joints no track turns or scales (written as the
//      nodes' rest `rotation` and `scale`).
// For each FBX in the sample folders, and each of its animation stacks (imported alone when
// it has several), whose import has a skeleton: step 5.
// Step 5 twice: the imported project, and the same project with an end site on every joint (an
// off-axis point half the rest pose's extent away at rest, in the joint's frame; held to the
// first's size), so a joint's own rotation and scale move a point even where no joint hangs
// below it (the FBX sample's loose objects).
// The times compared: every key time of the GLB's translation, rotation and scale channels,
// the midpoints between them, and a time after the end; a time is left out where a channel
// `tangent bake` reported as baked or not exact (max error > 0: Euler tracks as quaternions,
// extrapolation baked over the clip) has no key, since between its keys the GLB differs from
// the curve by what the bake reported, not by the rest pose; and at a jump (two keys one
// float32 step apart), where either value is right.
// It prints the largest difference per file and exits non-zero on any failure or when
// nothing was compared.
// usage: node pose_check.mjs TANGENT_BINARY WORK_DIR SAMPLE_DIR...
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import * as THREE from 'three';
import { GLTFLoader } from 'three/addons/loaders/GLTFLoader.js';
import validator from 'gltf-validator';

globalThis.ProgressEvent ??= class ProgressEvent extends Event {
  constructor(type, init = {}) { super(type); Object.assign(this, init); }
};

const [tangent, work, ...sampleDirs] = process.argv.slice(2);
fs.mkdirSync(work, { recursive: true });
const TOLERANCE = 1e-5;
let passed = 0;
let failed = 0;
let posed = 0;
let exported = 0;
const fail = (msg) => { failed++; console.log(`FAIL ${msg}`); };
const check = (ok, msg) => (ok ? passed++ : fail(msg));

/** Labels as src/import names nodes and animations: the name, FALLBACK<i>, NAME#i if shared,
 *  and LABEL#2, … should a label repeat an earlier one. */
function labels(names, fallback) {
  const first = names.map((n, i) => (!n ? `${fallback}${i}` : names.filter((m) => m === n).length > 1 ? `${n}#${i}` : n));
  const taken = new Set();
  return first.map((l) => {
    let name = l;
    for (let k = 2; taken.has(name); k++) name = `${l}#${k}`;
    taken.add(name);
    return name;
  });
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

/** The JSON and what GLTFLoader.parse takes. */
function readGltf(file) {
  const bytes = fs.readFileSync(file);
  if (file.endsWith('.glb')) {
    const jsonLength = bytes.readUInt32LE(12);
    return { json: JSON.parse(bytes.subarray(20, 20 + jsonLength).toString('utf8')), input: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength), bytes };
  }
  const json = loadableGltf(file);
  return { json, input: JSON.stringify(json), bytes: new TextEncoder().encode(JSON.stringify(json)) };
}

/** The default scene's nodes depth first, and whether one of them has a child. */
function sceneNodes(json) {
  const nodes = json.nodes ?? [];
  const children = new Set(nodes.flatMap((n) => n.children ?? []));
  const scene = json.scene ?? (json.scenes?.length ? 0 : undefined);
  const roots = scene === undefined ? nodes.map((_, i) => i).filter((i) => !children.has(i)) : json.scenes[scene].nodes ?? [];
  const order = [];
  const visit = (i) => { if (!order.includes(i)) { order.push(i); (nodes[i].children ?? []).forEach(visit); } };
  roots.forEach(visit);
  return { order, hierarchy: order.some((i) => (nodes[i].children ?? []).length > 0) };
}

/** `tangent pose`: per time, the joints' names and positions in skeleton order; null when it
 *  refuses for want of a skeleton. */
function pose(project, times) {
  const r = spawnSync(tangent, ['pose', project, '--times', times.join(',')], { encoding: 'utf8' });
  if (r.status !== 0) {
    if (r.stderr.includes('no skeleton')) return null;
    throw new Error(`tangent pose ${project}: ${r.stderr}`);
  }
  const out = new Map(times.map((t) => [t, []]));
  for (const line of r.stdout.trim().split('\n')) {
    const words = line.split(' ');
    const t = Number(words[0]);
    const name = words.slice(1, -3).join(' ');
    out.get(times.find((x) => x === t) ?? t)?.push({ name, p: words.slice(-3).map(Number) });
  }
  return times.map((t) => out.get(t));
}

async function checkFile(file) {
  const base = path.basename(file);
  const { json, input, bytes } = readGltf(file);
  const validated = await validator.validateBytes(new Uint8Array(bytes), { uri: base, externalResourceFunction: () => Promise.reject(new Error('no external resources')) });
  check(validated.issues.numErrors === 0, `${base}: glTF validator: ${JSON.stringify(validated.issues.messages.filter((m) => m.severity === 0).slice(0, 5))}`);
  const nodeLabels = labels((json.nodes ?? []).map((n) => n.name), 'node');
  const animLabels = labels((json.animations ?? []).map((a) => a.name), 'animation');
  const { order, hierarchy } = sceneNodes(json);
  const several = (json.animations ?? []).length > 1;
  for (const [a, anim] of (json.animations ?? []).entries()) {
    const label = several ? `${base} animation "${animLabels[a]}"` : base;
    const project = path.join(work, `${base}.${a}.ron`);
    execFileSync(tangent, ['import', file, '-o', project, ...(several ? ['--animation', animLabels[a]] : [])], { encoding: 'utf8' });
    const moved = anim.channels.some((c) => ['translation', 'rotation', 'scale'].includes(c.target?.path) && order.includes(c.target?.node));
    // Fresh objects for each animation: GLTFLoader's nodes, by index.
    const gltf = await new Promise((resolve, reject) => new GLTFLoader().parse(input, '', resolve, reject));
    const objects = await Promise.all((json.nodes ?? []).map((_, i) => gltf.parser.getDependency('node', i)));
    const clip = gltf.animations[a];
    const times = Array.from({ length: 24 }, (_, k) => (clip.duration * k) / 23);
    times.push(clip.duration + 0.5);
    const ours = pose(project, times);
    const expected = hierarchy && moved;
    check((ours !== null) === expected, `${label}: ${ours ? 'a' : 'no'} skeleton, expected ${expected ? 'one' : 'none'} (hierarchy ${hierarchy}, a scene node moved ${moved})`);
    if (ours === null) {
      console.log(`${label}: no skeleton (hierarchy ${hierarchy}, a scene node moved ${moved}), as expected: ${!expected ? 'yes' : 'NO'}`);
      continue;
    }
    // The joints: the scene's nodes, each once, each after its parent.
    const names = ours[0].map((j) => j.name);
    const index = new Map(nodeLabels.map((l, i) => [l, i]));
    check(names.length === order.length && names.every((n) => index.has(n) && order.includes(index.get(n))), `${label}: joints ${names} are not the scene's nodes ${order.map((i) => nodeLabels[i])}`);
    names.forEach((n, k) => {
      const parent = objects[index.get(n)]?.parent;
      const p = objects.indexOf(parent);
      check(parent === gltf.scene || (p >= 0 && names.indexOf(nodeLabels[p]) >= 0 && names.indexOf(nodeLabels[p]) < k), `${label}: joint ${n} comes before its parent`);
    });
    // The scene's size from the rest pose.
    gltf.scene.updateMatrixWorld(true);
    const rest = order.map((i) => objects[i].getWorldPosition(new THREE.Vector3()));
    const extent = (c) => Math.max(...rest.map((p) => p.getComponent(c))) - Math.min(...rest.map((p) => p.getComponent(c)));
    const size = Math.max(extent(0), extent(1), extent(2)) || 1;
    // Playback.
    const mixer = new THREE.AnimationMixer(gltf.scene);
    const action = mixer.clipAction(clip);
    action.setLoop(THREE.LoopOnce);
    action.clampWhenFinished = true;
    action.play();
    let worst = { d: 0 };
    times.forEach((t, k) => {
      // A LoopOnce action that reached its end is paused (clampWhenFinished): reset it first.
      action.reset();
      mixer.setTime(t);
      gltf.scene.updateMatrixWorld(true);
      for (const { name, p } of ours[k]) {
        const o = objects[index.get(name)];
        const w = new THREE.Vector3().setFromMatrixPosition(o.matrixWorld);
        const d = Math.hypot(w.x - p[0], w.y - p[1], w.z - p[2]);
        if (!(d <= worst.d)) worst = { d, t, name, three: w.toArray(), tangent: p };
      }
    });
    posed++;
    check(worst.d <= TOLERANCE * size, `${label}: ${worst.name} at ${worst.t} s: three.js ${worst.three} vs tangent ${worst.tangent}, ${worst.d} > ${TOLERANCE} × size ${size}`);
    console.log(`${label}: ${names.length} joints at ${times.length} times, size ${size.toPrecision(4)}; largest difference from three.js r${THREE.REVISION} ${worst.d.toExponential(2)} (${(worst.d / size).toExponential(2)} × size, at ${worst.name}, ${worst.t} s)`);
    await checkExports(project, label);
  }
}

/** A GLB's JSON, its BIN chunk, and what GLTFLoader.parse takes. */
function readGlb(file) {
  const bytes = fs.readFileSync(file);
  const jsonLength = bytes.readUInt32LE(12);
  const json = JSON.parse(bytes.subarray(20, 20 + jsonLength).toString('utf8'));
  const binStart = 20 + jsonLength + 8;
  const bin = bytes.subarray(binStart, binStart + bytes.readUInt32LE(20 + jsonLength));
  return { json, bin, bytes, input: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) };
}

/** The float32 values of an accessor (no sparse, no stride: what Tangent writes). */
function floats(json, bin, a) {
  const acc = json.accessors[a];
  const view = json.bufferViews[acc.bufferView];
  const width = { SCALAR: 1, VEC3: 3, VEC4: 4 }[acc.type];
  const start = bin.byteOffset + (view.byteOffset ?? 0) + (acc.byteOffset ?? 0);
  return Array.from(new Float32Array(bin.buffer.slice(start, start + 4 * width * acc.count)));
}

/** `tangent bake --format glb` of `project`: the GLB and the names of the tracks not written
 *  exactly (form baked, or a max error above 0). */
function bake(project, glb) {
  const out = execFileSync(tangent, ['bake', project, '--format', 'glb', '-o', glb], { encoding: 'utf8' });
  const lossy = new Set();
  for (const line of out.trim().split('\n')) {
    const [name, target, form, , error] = line.split('\t');
    if (['Translation', 'Rotation', 'Scale'].includes(target) && (form === 'baked' || parseFloat(error.replace('max error ', '')) > 0)) lossy.add(name);
  }
  return { ...readGlb(glb), lossy };
}

/** The project with an end site on every joint that has none: at `length[name]` along a fixed
 *  off-axis direction in the joint's frame (the RON's joints are `(name: "…", …)`). */
function withEndSites(project, out, length) {
  const text = fs.readFileSync(project, 'utf8');
  const at = text.indexOf('skeleton: Some(');
  const dir = [0.3, 0.5, 0.7].map((x) => x / Math.hypot(0.3, 0.5, 0.7));
  const skeleton = text.slice(at).replace(/\(\s*name: "((?:[^"\\]|\\.)*)",/g, (m, name) => {
    const l = length[JSON.parse(`"${name}"`)];
    return l === undefined ? m : `${m} end_site: Some((${dir.map((x) => x * l).join(', ')})),`;
  });
  fs.writeFileSync(out, text.slice(0, at) + skeleton);
  return out;
}

/** Step 5 (file header) on `project`, the imported one and with end sites. */
async function checkExports(project, label) {
  const lengths = await checkExport(project, label, null);
  if (lengths) await checkExport(withEndSites(project, project.replace(/\.ron$/, '.ends.ron'), lengths), `${label} with end sites`, lengths.size);
}

/** Exports `project` to GLB and plays it in three.js against `tangent pose` (file header,
 *  step 5). `size`: the tolerance's size (else the GLB's rest pose's). Returns each node's
 *  end-site length (half the size over the node's rest world scale) and the size. */
async function checkExport(project, label, size) {
  const glbFile = project.replace(/\.ron$/, '.glb');
  const { json, bin, bytes, input, lossy } = bake(project, glbFile);
  const validated = await validator.validateBytes(new Uint8Array(bytes), { uri: path.basename(glbFile), externalResourceFunction: () => Promise.reject(new Error('no external resources')) });
  check(validated.issues.numErrors === 0, `${label} export: glTF validator: ${JSON.stringify(validated.issues.messages.filter((m) => m.severity === 0).slice(0, 5))}`);
  const nodeNames = (json.nodes ?? []).map((n) => n.name);
  const index = new Map(nodeNames.map((n, i) => [n, i]));
  check(nodeNames.every((n) => typeof n === 'string') && index.size === nodeNames.length, `${label} export: node names not unique: ${nodeNames}`);
  const parentOf = new Map((json.nodes ?? []).flatMap((n, i) => (n.children ?? []).map((c) => [c, i])));
  // A helper node of a joint with pivots (src/export/skeleton.rs): `JOINT_pivot` or
  // `JOINT_scaling` (a number after it where the name was taken), an ancestor of JOINT's node,
  // with only nodes of JOINT between: the joint's name, else undefined.
  const helperOf = (name) => {
    const m = /^(.*)_(pivot|scaling)\d*$/.exec(name ?? '');
    if (!m || !index.has(m[1]) || !index.has(name)) return undefined;
    let n = index.get(m[1]);
    while (parentOf.has(n)) {
      n = parentOf.get(n);
      if (n === index.get(name)) return m[1];
      if ((json.nodes[n].children ?? []).length !== 1) return undefined;
    }
    return undefined;
  };
  // The times (file header) from the channels.
  const channels = (json.animations ?? []).flatMap((a) => a.channels.map((c) => ({ node: nodeNames[c.target.node], path: c.target.path, times: floats(json, bin, a.samplers[c.sampler].input) })))
    .filter((c) => ['translation', 'rotation', 'scale'].includes(c.path));
  const lossyTimes = [...lossy].map((name) => {
    const cut = name.lastIndexOf('.');
    const joint = name.slice(0, cut);
    const c = channels.find((c) => (c.node === joint || helperOf(c.node) === joint) && c.path === name.slice(cut + 1));
    check(c !== undefined, `${label} export: track ${name} is on no joint's channel`);
    return new Set(c?.times ?? []);
  });
  // A jump (two keys at one time, the second a float32 step later) is either value at that
  // instant: not compared there.
  const jumps = new Set(channels.flatMap((c) => c.times.flatMap((t, k) => (k > 0 && t - c.times[k - 1] < 1e-6 ? [c.times[k - 1], t] : []))));
  const keys = [...new Set(channels.flatMap((c) => c.times))].sort((a, b) => a - b);
  const candidates = [...keys, ...keys.slice(1).map((t, k) => (t + keys[k]) / 2), (keys.at(-1) ?? 0) + 0.5];
  const times = [...new Set(candidates.filter((t) => !jumps.has(t) && lossyTimes.every((s) => s.has(t))))].sort((a, b) => a - b);
  const ours = pose(project, times);
  check(ours !== null, `${label} export: tangent pose found no skeleton`);
  if (ours === null) return null;
  // The GLB's nodes are the joints (and end sites) and the helper nodes of joints with pivots:
  // nothing more, nothing less.
  const points = ours[0].map((p) => p.name);
  const helpers = nodeNames.filter((n) => !points.includes(n));
  check(points.every((n) => index.has(n)) && helpers.every((n) => helperOf(n) !== undefined), `${label} export: the GLB's nodes ${nodeNames} are not the body's points ${points} and their helper nodes`);
  const gltf = await new Promise((resolve, reject) => new GLTFLoader().parse(input, '', resolve, reject));
  const objects = await Promise.all(nodeNames.map((_, i) => gltf.parser.getDependency('node', i)));
  gltf.scene.updateMatrixWorld(true);
  // The size: the largest extent over x, y, z of the rest pose and the poses compared (a take
  // can move far from where it rests, and float32 rounds each coordinate relative to itself).
  const rest = objects.map((o) => o.getWorldPosition(new THREE.Vector3()).toArray());
  const all = [...rest, ...ours.flat().map((q) => q.p)];
  const extent = (c) => Math.max(...all.map((p) => p[c])) - Math.min(...all.map((p) => p[c]));
  size ??= Math.max(extent(0), extent(1), extent(2)) || 1;
  const restExtent = Math.max(...[0, 1, 2].map((c) => Math.max(...rest.map((p) => p[c])) - Math.min(...rest.map((p) => p[c])))) || 1;
  const lengths = { size };
  nodeNames.forEach((n, i) => { lengths[n] = (0.5 * restExtent) / Math.max(objects[i].matrixWorld.getMaxScaleOnAxis(), 1e-12); });
  const mixer = new THREE.AnimationMixer(gltf.scene);
  const actions = gltf.animations.map((clip) => {
    const action = mixer.clipAction(clip);
    action.setLoop(THREE.LoopOnce);
    action.clampWhenFinished = true;
    action.play();
    return action;
  });
  let worst = { d: -1 };
  times.forEach((t, k) => {
    for (const action of actions) action.reset();
    mixer.setTime(t);
    gltf.scene.updateMatrixWorld(true);
    for (const { name, p } of ours[k]) {
      const o = objects[index.get(name)];
      if (!o) continue;
      const w = new THREE.Vector3().setFromMatrixPosition(o.matrixWorld);
      const d = Math.hypot(w.x - p[0], w.y - p[1], w.z - p[2]);
      if (!(d <= worst.d)) worst = { d, t, name, three: w.toArray(), tangent: p };
    }
  });
  exported++;
  check(times.length > 0, `${label} export: no time to compare at`);
  check(worst.d <= TOLERANCE * size, `${label} export: ${worst.name} at ${worst.t} s: three.js ${worst.three} vs tangent ${worst.tangent}, ${worst.d} > ${TOLERANCE} × size ${size}`);
  console.log(`${label} exported: ${nodeNames.length} nodes (${gltf.animations.length} animation), ${times.length} times (${lossy.size} baked tracks), size ${size.toPrecision(4)}; largest difference from tangent pose in three.js r${THREE.REVISION} ${worst.d.toExponential(2)} (${(worst.d / size).toExponential(2)} × size, at ${worst.name}, ${worst.t} s)`);
  return lengths;
}

/** An FBX file: each stack imported alone (when it has several), and step 5 where the import
 *  has a skeleton. The stacks: the `STACK/` prefixes of the tracks of a plain import. */
async function checkFbx(file) {
  const base = path.basename(file);
  const all = path.join(work, `${base}.all.ron`);
  const listed = execFileSync(tangent, ['import', file, '-o', all], { encoding: 'utf8' });
  const names = listed.trim().split('\n').filter((l) => l.includes('\t')).map((l) => l.split('\t')[0]);
  const stacks = [...new Set(names.filter((n) => n.includes('/')).map((n) => n.slice(0, n.indexOf('/'))))];
  const imports = stacks.length > 1 ? stacks.map((s, k) => ({ label: `${base} stack "${s}"`, project: path.join(work, `${base}.${k}.ron`), args: ['--animation', s] })) : [{ label: base, project: all, args: null }];
  for (const { label, project, args } of imports) {
    if (args) execFileSync(tangent, ['import', file, '-o', project, ...args], { encoding: 'utf8' });
    if (!fs.readFileSync(project, 'utf8').includes('skeleton: Some(')) {
      console.log(`${label}: no skeleton`);
      continue;
    }
    await checkExports(project, label);
  }
}

for (const dir of sampleDirs) {
  for (const entry of fs.readdirSync(dir).sort()) {
    if (entry.endsWith('.gltf') || entry.endsWith('.glb')) await checkFile(path.join(dir, entry));
    if (entry.endsWith('.fbx')) await checkFbx(path.join(dir, entry));
  }
}
console.log(`pose conformance: ${posed} clips posed, ${exported} exports played, ${passed} passed, ${failed} failed`);
if (posed === 0 || exported === 0) console.log('FAIL no clip was posed or no export played: nothing was compared');
process.exit(failed === 0 && posed > 0 && exported > 0 ? 0 : 1);
