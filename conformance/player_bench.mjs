// Plays one clip with three.js r187's real AnimationMixer and prints, beside the figures of
// Tangent's clip player on the same clip (examples/player_bench.rs writes them with its
// values), the four lines issue 33 asks for:
//
//   three mixer 60 tracks sequential: N ns/frame
//   three mixer 60 tracks random: N ns/frame
//   tangent player 60 tracks sequential: N ns/frame
//   tangent player 60 tracks random: N ns/frame
//
// The clip (issue 33): 30 Vec3 tracks (InterpolateSmooth; Tcb in Tangent) and 30 quaternion
// tracks (slerp), 2,000 keys each. r is the Park–Miller generator, seed = seed·16807 mod
// (2³¹−1), r = seed/(2³¹−1), seeded 1+i for Vec3 track i and 1000+i for quaternion track i.
// Each track draws its times first: key 0 at 0, then each key 0.01 + 0.02·r after the one
// before (1,999 draws, summed in double); then its values key by key: a Vec3 key three
// values 10·r − 5, a quaternion key four (x, y, z, w) with 3 added to w, normalised in double.
// Every time and value is then rounded to float32 (Math.fround), which is what three.js
// stores (Float32Array) and what Tangent is given. The data checksum is 32-bit FNV-1a over
// the float32 bit patterns (little-endian bytes), track by track (Vec3 0..29, then quaternion
// 0..29), each track's times then its values; both sides print it and it must agree.
//
// Timing: one AnimationMixer on a root Object3D with 60 child Object3Ds (v0..v29 bound to
// .position, q0..q29 to .quaternion), one clipAction(clip).play(). Sequential: a round is
// 1,000 frames of mixer.update(1/60) (the clock runs on, looping); random: a round is 1,000
// frames of action.time = r·duration, mixer.update(0), the times the next 1,000 of 100,000
// drawn once by Park–Miller from seed 4242 (the same times Tangent seeks to). Median ns per
// frame of the rounds timed after 100 untimed ones, with process.hrtime.bigint(): at least 200
// rounds and at least one second of them (PLAYER_BENCH_MIN_SECONDS), as Tangent's side times
// its player, so that a short burst of other work on the host weighs on both medians alike.
//
// Before timing, the mixer's quaternions are compared with Tangent's at the frames its file
// lists (sequential from the start, and random seeks): same clip, same times, so they agree
// to float32 rounding (three.js interpolates in a Float32Array).
//
// usage: node player_bench.mjs TANGENT.json   (tools/bench_vs_three.sh runs it)
import fs from 'node:fs';
import * as THREE from 'three';

const M = 2147483647;
const TRACKS = 30;
const KEYS = 2000;
const FRAMES = 1000;
const WARMUP = 100;
const ROUNDS = 200;
const MIN_SECONDS = (() => {
  // Unset or empty: one second (as on Tangent's side).
  const v = Number(process.env.PLAYER_BENCH_MIN_SECONDS || '1');
  return Number.isFinite(v) && v >= 0 ? v : 1;
})();
const RANDOM_TIMES = 100000;

function parkMiller(seed) {
  let s = seed;
  return () => {
    s = (s * 16807) % M;
    return s / M;
  };
}

/** Times and values of one track, float32-rounded, as the header says. */
function generate(seed, dim) {
  const r = parkMiller(seed);
  const times = new Float32Array(KEYS);
  let t = 0;
  for (let k = 0; k < KEYS; k++) {
    if (k > 0) t += 0.01 + 0.02 * r();
    times[k] = t;
  }
  const values = new Float32Array(KEYS * dim);
  for (let k = 0; k < KEYS; k++) {
    const v = [];
    for (let c = 0; c < dim; c++) v.push(10 * r() - 5);
    if (dim === 4) {
      v[3] += 3;
      const n = Math.sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2] + v[3] * v[3]);
      for (let c = 0; c < 4; c++) v[c] /= n;
    }
    for (let c = 0; c < dim; c++) values[k * dim + c] = v[c];
  }
  return { times, values };
}

function fnv1a(hash, array) {
  const bytes = new Uint8Array(array.buffer, array.byteOffset, array.byteLength);
  for (let i = 0; i < bytes.length; i++) hash = Math.imul(hash ^ bytes[i], 16777619) >>> 0;
  return hash;
}

const file = process.argv[2];
if (!file) throw new Error('usage: node player_bench.mjs TANGENT.json');
const tangent = JSON.parse(fs.readFileSync(file, 'utf8'));

const data = [];
for (let i = 0; i < TRACKS; i++) data.push({ name: `v${i}`, property: 'position', dim: 3, ...generate(1 + i, 3) });
for (let i = 0; i < TRACKS; i++) data.push({ name: `q${i}`, property: 'quaternion', dim: 4, ...generate(1000 + i, 4) });
let checksum = 2166136261;
for (const d of data) checksum = fnv1a(fnv1a(checksum, d.times), d.values);
const hex = checksum.toString(16).padStart(8, '0');

const root = new THREE.Object3D();
const objects = data.map((d) => {
  const o = new THREE.Object3D();
  o.name = d.name;
  root.add(o);
  return o;
});
const tracks = data.map((d) =>
  d.dim === 3
    ? new THREE.VectorKeyframeTrack(`${d.name}.position`, d.times, d.values, THREE.InterpolateSmooth)
    : new THREE.QuaternionKeyframeTrack(`${d.name}.quaternion`, d.times, d.values),
);
const clip = new THREE.AnimationClip('clip', -1, tracks);
for (const t of clip.tracks) {
  if (!(t.times instanceof Float32Array && t.values instanceof Float32Array)) throw new Error(`${t.name}: not Float32Array`);
}
const mixer = new THREE.AnimationMixer(root);
const action = mixer.clipAction(clip);
action.play();
const duration = clip.duration;

const draw = parkMiller(4242);
const randomTimes = new Float64Array(RANDOM_TIMES);
for (let i = 0; i < RANDOM_TIMES; i++) randomTimes[i] = draw() * duration;

/** Largest |three.js − Tangent| over the quaternion tracks at the frames Tangent wrote. */
function compare() {
  let worst = 0;
  let frames = 0;
  const check = (want) => {
    for (let i = 0; i < TRACKS; i++) {
      const q = objects[TRACKS + i].quaternion;
      const got = [q.x, q.y, q.z, q.w];
      const off = tangent.quat_offsets[i];
      for (let c = 0; c < 4; c++) worst = Math.max(worst, Math.abs(got[c] - want[off + c]));
    }
    frames++;
  };
  for (const want of tangent.sequential_values) {
    mixer.update(1 / 60);
    check(want);
  }
  tangent.random_values.forEach((want, k) => {
    action.time = randomTimes[k];
    mixer.update(0);
    check(want);
  });
  return { worst, frames };
}

function time(frame) {
  let sink = 0;
  let next = 0;
  const round = () => {
    for (let f = 0; f < FRAMES; f++) frame(next++);
    sink += objects[0].position.x + objects[TRACKS].quaternion.w;
  };
  for (let r = 0; r < WARMUP; r++) round();
  const ns = [];
  const begin = process.hrtime.bigint();
  while (ns.length < ROUNDS || Number(process.hrtime.bigint() - begin) < MIN_SECONDS * 1e9) {
    const t0 = process.hrtime.bigint();
    round();
    ns.push(Number(process.hrtime.bigint() - t0) / FRAMES);
  }
  if (!Number.isFinite(sink)) throw new Error('non-finite value');
  ns.sort((a, b) => a - b);
  return ns[ns.length >> 1];
}

if (tangent.checksum !== hex) throw new Error(`data checksums differ: three.js ${hex}, Tangent ${tangent.checksum}`);
if (tangent.duration !== duration) throw new Error(`durations differ: three.js ${duration}, Tangent ${tangent.duration}`);
const { worst, frames } = compare();
if (!(worst < 1e-5)) throw new Error(`quaternions differ from Tangent's by ${worst}`);

mixer.stopAllAction();
action.reset().play();
mixer.setTime(0);
const sequential = time(() => mixer.update(1 / 60));
const random = time((k) => {
  action.time = randomTimes[k % RANDOM_TIMES];
  mixer.update(0);
});

const f = (x) => x.toFixed(1);
console.log(`three mixer 60 tracks sequential: ${f(sequential)} ns/frame`);
console.log(`three mixer 60 tracks random: ${f(random)} ns/frame`);
console.log(`tangent player 60 tracks sequential: ${f(tangent.sequential_ns)} ns/frame`);
console.log(`tangent player 60 tracks random: ${f(tangent.random_ns)} ns/frame`);
console.log('');
console.log(`three.js r${THREE.REVISION} (Node ${process.version}) ÷ Tangent: sequential ${(sequential / tangent.sequential_ns).toFixed(1)}× (target ≥ 20×), random ${(random / tangent.random_ns).toFixed(1)}× (target ≥ 15×)`);
console.log(`clip: ${TRACKS} Vec3 + ${TRACKS} quaternion tracks × ${KEYS} keys, ${duration.toFixed(3)} s; data checksum ${hex} on both sides; quaternions agree within ${worst.toExponential(1)} at ${frames} frames`);
if (tangent.notes) for (const line of tangent.notes) console.log(line);
