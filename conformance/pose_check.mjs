// The body of a glTF import (SPEC §14, issue 42) against three.js r187. For each glTF and GLB
// in the sample folders, and each of its animations (imported alone: `tangent import FILE
// --animation NAME` when it has several), it
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
//      the gltf crate does; the sample's numbers are float32 values, so both start alike).
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
  }
}

for (const dir of sampleDirs) {
  for (const entry of fs.readdirSync(dir).sort()) {
    if (entry.endsWith('.gltf') || entry.endsWith('.glb')) await checkFile(path.join(dir, entry));
  }
}
console.log(`pose conformance: ${posed} clips posed, ${passed} passed, ${failed} failed`);
if (posed === 0) console.log('FAIL no clip was posed: nothing was compared');
process.exit(failed === 0 && posed > 0 ? 0 : 1);
