// Times three.js r187's interpolants on the exact curves of Tangent's evaluation benchmark
// (benches/eval.rs writes them: the Bezier Vec3 track as Tangent's three.js exporter writes it,
// an InterpolateBezier track with settings.inTangents/outTangents, and the keys of the Cubic
// Vec3 track for CubicInterpolant, the Linear Vec3 track for LinearInterpolant and the Slerp
// Quat track for QuaternionLinearInterpolant), at the same 10,000 query times in sequential
// and random order. First it checks that three.js gives the same values as Tangent there (the
// largest difference per case; for Bezier also against the same control points solved here to
// full precision, since three.js stops its Newton iteration at |x(s) − t| < 1e-10), then it
// times sweeps with process.hrtime.bigint() after a warm-up and prints the median ns per
// sample. With --criterion DIR it reads Tangent's medians for the same cases from criterion's
// estimates and prints them side by side, then every ratio issue 15 and issue 11 set targets
// for, from the same run (tools/bench_vs_three.sh does all of it).
//
// Buffers are Float64Array, like Tangent's f64 (three.js defaults to Float32Array).
// usage: node bench.mjs [TRACKS.json] [--json] [--criterion DIR]
//        (default TRACKS.json: ../target/bench-tracks/eval-vec3.json)
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as THREE from 'three';

const here = path.dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const asJson = args.includes('--json');
const criterionAt = args.indexOf('--criterion');
const criterion = criterionAt >= 0 ? args[criterionAt + 1] : null;
const file = args.find((a, i) => !a.startsWith('--') && i !== criterionAt + 1) ?? path.join(here, '..', 'target', 'bench-tracks', 'eval-vec3.json');
const doc = JSON.parse(fs.readFileSync(file, 'utf8'));

/** The three.js interpolant for a case: Bezier from the exported clip, the others from their
 * keys (Cubic: InterpolateSmooth; Linear Vec3 and Slerp Quat: InterpolateLinear). */
function interpolant(c) {
  if (c.three.clip) {
    const clip = THREE.AnimationClip.parse(c.three.clip);
    const track = clip.tracks.find((t) => t.name === c.three.track);
    const json = c.three.clip.tracks.find((t) => t.name === c.three.track);
    track.times = Float64Array.from(json.times);
    track.values = Float64Array.from(json.values);
    track.settings = { inTangents: Float64Array.from(json.settings.inTangents), outTangents: Float64Array.from(json.settings.outTangents) };
    if (track.getInterpolation() !== THREE.InterpolateBezier) throw new Error(`${c.name}: not loaded as InterpolateBezier`);
    return track.createInterpolant();
  }
  // The constructor converts to Float32Array: switch the buffers afterwards.
  const Track = c.three.kind === 'quaternion' ? THREE.QuaternionKeyframeTrack : THREE.VectorKeyframeTrack;
  const mode = c.three.interpolation === 'smooth' ? THREE.InterpolateSmooth : THREE.InterpolateLinear;
  const track = new Track(c.three.kind === 'quaternion' ? 'x.quaternion' : 'x.position', c.three.times, c.three.values, mode);
  track.times = Float64Array.from(c.three.times);
  track.values = Float64Array.from(c.three.values);
  return track.createInterpolant();
}

/** Largest |three.js − Tangent| over the query times (a fresh interpolant, in order). */
function maxDifference(c, order) {
  const interp = interpolant(c);
  const ts = c.times[order];
  const want = c.tangent[order];
  const dim = want.length / ts.length;
  let worst = 0;
  for (let i = 0; i < ts.length; i++) {
    const got = interp.evaluate(ts[i]);
    for (let k = 0; k < dim; k++) worst = Math.max(worst, Math.abs(got[k] - want[i * dim + k]));
  }
  return worst;
}

/** Cubic Bézier `p0..p3` at `s`, and the `s` with x(s) = t to full precision (bisection). */
const bezier = (s, p0, p1, p2, p3) => ((1 - s) ** 3) * p0 + 3 * (1 - s) ** 2 * s * p1 + 3 * (1 - s) * s * s * p2 + s ** 3 * p3;
function exactParameter(t, x0, x1, x2, x3) {
  let [lo, hi] = [0, 1];
  while (true) {
    const mid = 0.5 * (lo + hi);
    if (mid <= lo || mid >= hi) return mid;
    if (bezier(mid, x0, x1, x2, x3) < t) lo = mid;
    else hi = mid;
  }
}

/** Largest |exact − Tangent| for a Bezier case: the exported control points solved to full
 * precision. */
function exactDifference(c, order) {
  const json = c.three.clip.tracks.find((t) => t.name === c.three.track);
  const { times, values } = json;
  const { inTangents, outTangents } = json.settings;
  const ts = c.times[order];
  const want = c.tangent[order];
  const dim = values.length / times.length;
  let worst = 0;
  for (let i = 0; i < ts.length; i++) {
    let k = 0;
    while (k + 2 < times.length && times[k + 1] <= ts[i]) k++;
    for (let d = 0; d < dim; d++) {
      const [o, n] = [(k * dim + d) * 2, ((k + 1) * dim + d) * 2];
      // In local time u ∈ [0, 1], as Tangent solves: global times near 600 s carry only
      // ~1e-13 s of precision.
      const [t0, dt] = [times[k], times[k + 1] - times[k]];
      const s = exactParameter((ts[i] - t0) / dt, 0, (outTangents[o] - t0) / dt, (inTangents[n] - t0) / dt, 1);
      const v = bezier(s, values[k * dim + d], outTangents[o + 1], inTangents[n + 1], values[(k + 1) * dim + d]);
      worst = Math.max(worst, Math.abs(v - want[i * dim + d]));
    }
  }
  return worst;
}

/** Median ns per sample of `rounds` timed sweeps, after `warmup` untimed ones. */
function time(c, order, { warmup = 300, rounds = 200 } = {}) {
  const interp = interpolant(c);
  const ts = Float64Array.from(c.times[order]);
  let sink = 0;
  const sweep = () => {
    for (let i = 0; i < ts.length; i++) sink += interp.evaluate(ts[i])[0];
  };
  for (let r = 0; r < warmup; r++) sweep();
  const ns = [];
  for (let r = 0; r < rounds; r++) {
    const t0 = process.hrtime.bigint();
    sweep();
    ns.push(Number(process.hrtime.bigint() - t0) / ts.length);
  }
  if (!Number.isFinite(sink)) throw new Error('non-finite value');
  ns.sort((a, b) => a - b);
  return ns[ns.length >> 1];
}

/** Tangent's criterion median for a case, in ns per sample, if measured. */
function tangentNs(name, order) {
  // Criterion writes a benchmark's directory with these characters replaced.
  const dir = name.replace(/[:/\\?*"<>|]/g, '_');
  const f = path.join(criterion, `eval ${order} (${doc.samples / 1000}k samples, ${doc.keys} keys)`, dir, 'new', 'estimates.json');
  if (!fs.existsSync(f)) return null;
  return JSON.parse(fs.readFileSync(f, 'utf8')).median.point_estimate / doc.samples;
}

const results = [];
for (const c of doc.cases) {
  for (const order of ['sequential', 'random']) {
    const r = { case: c.name, order, ns: time(c, order), maxDifference: maxDifference(c, order) };
    if (c.three.clip) r.exactDifference = exactDifference(c, order);
    results.push(r);
  }
}
const e = (x) => x.toExponential(1);
if (asJson) {
  console.log(JSON.stringify({ three: THREE.REVISION, keys: doc.keys, samples: doc.samples, results }));
} else if (criterion) {
  console.log(`Tangent (criterion median) and three.js r${THREE.REVISION} (Node ${process.version}, median of 200 sweeps), ns per sample, ${doc.keys} keys, ${doc.samples} samples:\n`);
  console.log('| case | Tangent ns | three.js ns | three.js ÷ Tangent | max abs value difference |');
  console.log('|---|---|---|---|---|');
  for (const r of results) {
    const t = tangentNs(r.case, r.order);
    const diff = `${e(r.maxDifference)}` + (r.exactDifference === undefined ? '' : ` (Tangent vs exact solve: ${e(r.exactDifference)})`);
    console.log(`| ${r.case}, ${r.order} | ${t === null ? '–' : t.toFixed(1)} | ${r.ns.toFixed(1)} | ${t === null ? '–' : (r.ns / t).toFixed(1) + '×'} | ${diff} |`);
  }
  targets(results);
} else {
  console.log(`three.js r${THREE.REVISION}, ${doc.keys} keys, ${doc.samples} samples, Float64Array buffers`);
  for (const r of results) {
    const exact = r.exactDifference === undefined ? '' : `, max |exact − Tangent| = ${e(r.exactDifference)}`;
    console.log(`${r.case} ${r.order}: ${r.ns.toFixed(1)} ns/sample, max |three.js − Tangent| = ${e(r.maxDifference)}${exact}`);
  }
}

/** Every ratio the issues set a target for, from criterion's medians of this run and the
 * three.js timings above. */
function targets(results) {
  const three = (name, order) => results.find((r) => r.case === name && r.order === order)?.ns ?? null;
  const row = (what, num, den, target, ok) => {
    if (num === null || den === null) return console.log(`| ${what} | – | – | – | ${target} | – |`);
    const ratio = num / den;
    const verdict = ok === null ? '–' : ok(ratio) ? 'met' : 'not met';
    console.log(`| ${what} | ${num.toFixed(1)} | ${den.toFixed(1)} | ${ratio.toFixed(2)}× | ${target} | ${verdict} |`);
  };
  console.log('\nTargets (issues 11 and 15), ratios from this one run:\n');
  console.log('| ratio | ns | ns | ratio | target | |');
  console.log('|---|---|---|---|---|---|');
  for (const order of ['sequential', 'random']) {
    const min = order === 'sequential' ? 10 : 8;
    row(`three.js Cubic ÷ Tangent Tcb Vec3, ${order}`, three('Cubic Vec3', order), tangentNs('Tcb Vec3', order), `≥ ${min}×`, (r) => r >= min);
    row(`three.js ÷ Tangent, Slerp Quat, ${order}`, three('Slerp Quat', order), tangentNs('Slerp Quat', order), '≥ 4×', (r) => r >= 4);
    row(`Squad ÷ Slerp, ${order}`, tangentNs('Squad Quat', order), tangentNs('Slerp Quat', order), '≤ 2×', (r) => r <= 2);
    const sequential = order === 'sequential';
    row(`Bezier Vec3 ÷ Tcb Vec3, ${order}`, tangentNs('Bezier Vec3 (AutoClamped)', order), tangentNs('Tcb Vec3', order), sequential ? '≤ 2×' : '–', sequential ? (r) => r <= 2 : null);
  }
  const modes = ['Step Vec3', 'Linear Vec3', 'Cubic Vec3', 'Tcb Vec3', 'Tcb+ease Vec3', 'Bezier Vec3 (AutoClamped)', 'Slerp Quat', 'Nlerp Quat', 'Squad Quat'];
  for (const m of ['Step Vec3', 'Linear Vec3']) {
    row(`${m} ÷ Tcb Vec3, sequential`, tangentNs(m, 'sequential'), tangentNs('Tcb Vec3', 'sequential'), '≤ 1×', (r) => r <= 1);
  }
  for (const m of modes) {
    row(`${m} random ÷ its binary-search baseline`, tangentNs(m, 'random'), tangentNs(`baseline (binary search): ${m}`, 'random'), '≤ 0.67×', (r) => r <= 0.67);
  }
  for (const order of ['sequential', 'random']) {
    row(`lookup alone (cursor and index ÷ binary search), ${order}`, tangentNs('lookup only: cursor and index', order), tangentNs('lookup only: binary search', order), '–', null);
  }
  for (const m of ['Tcb Vec3', 'Cubic Vec3', 'Linear Vec3', 'Bezier Vec3 (AutoClamped)', 'Slerp Quat']) {
    const many = tangentNs(`sample_many: ${m}`, 'sequential');
    const tcb = m === 'Tcb Vec3';
    row(`sample_many ${m} ÷ sample, sequential (ns per sample)`, many, tangentNs(m, 'sequential'), tcb ? '≤ 2 ns per sample' : '–', tcb ? () => many <= 2 : null);
  }
}
