"""Round trip of tools/blender/tangent_io.py (the Tangent add-on) in Blender, headless:

    blender -b --factory-startup --python tools/blender/tangent_roundtrip.py -- [OUTDIR] [--tangent BIN]
    python tools/blender/tangent_roundtrip.py [--] [OUTDIR] [--tangent BIN]   (the bpy module from PyPI)

Under the bpy module the script starts from Blender's factory settings, as --factory-startup.

OUTDIR defaults to tests/reference/blender_roundtrip (beside this script's repository).

1. Blender -> Tangent, at 24 fps and at 30 fps: builds F-curves of every kind (every handle
   type, both auto smoothing modes, every interpolation with each easing and random
   back/amplitude/period, amplitude and period 0 included, Constant and Linear extrapolation
   with every kind of end key, Cycles Repeat and Repeat with Offset on either side in both
   smoothing modes), records `fcurve.evaluate` at about 300 frames per curve (before, inside
   and after the keys), exports them with the add-on's operator to OUTDIR/roundtrip.ron and
   roundtrip_30fps.ron, and writes the samples to samples.json and samples_30fps.json
   (track name -> [[seconds, value], ...], with Blender's version and each curve's case).
   tests/blender_roundtrip.rs evaluates the same tracks with Tangent.
2. Tangent -> Blender: clears the scene, imports each file with the add-on's operator and
   checks every F-curve key for key (handles within 1e-5, types, interpolation, easing,
   back, amplitude, period, smoothing, extrapolation, Cycles) and every sample within
   1e-5 x (1 + |v|); then the 30 fps file into an animated 24 fps scene (kept at 24 fps,
   with a warning; the values at the same seconds). Then a project written as Tangent writes
   them (Step, Linear and Bezier tracks of every kind, tracks the add-on must skip) imported:
   skipped with the right messages, and with --tangent BIN (a built `tangent`) every imported
   value compared with `tangent eval`. Then malformed files (errors with their line) and the
   export warnings (modifiers, Cycles modes Tangent has no equivalent for).

Prints the counts and exits 1 on any failure or when nothing was checked.

Samples stay 2e-3 frames away from key times (and their images under Cycles): within 1e-4
frames of a key Blender returns the key's value without evaluating (a jump for Constant keys).
"""

import json
import math
import os
import random
import struct
import subprocess
import sys
import tempfile

import bpy

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.dont_write_bytecode = True  # no __pycache__ beside the add-on
import tangent_io  # noqa: E402

REPO = os.path.dirname(os.path.dirname(HERE))
TOLERANCE = 1e-5
SAMPLES_PER_CURVE = 300
KEY_MARGIN = 2e-3  # frames
IPOS = ["CONSTANT", "LINEAR", "BEZIER", "BACK", "BOUNCE", "CIRC", "CUBIC", "ELASTIC", "EXPO", "QUAD", "QUART", "QUINT", "SINE"]
EASINGS = ["AUTO", "EASE_IN", "EASE_OUT", "EASE_IN_OUT"]
TYPES = ["FREE", "ALIGNED", "VECTOR", "AUTO", "AUTO_CLAMPED"]
SLOTS = [(p, i) for p in ("location", "rotation_euler", "scale", "delta_location") for i in range(3)]
FAILURES = []


def f32(x):
    return struct.unpack("<f", struct.pack("<f", x))[0]


def fail(message):
    FAILURES.append(message)
    if len(FAILURES) <= 40:
        print("FAIL", message)


def args():
    argv = tangent_io.script_args()
    out, tangent = None, None
    while argv:
        a = argv.pop(0)
        if a == "--tangent":
            tangent = argv.pop(0)
        else:
            out = a
    return out or os.path.join(REPO, "tests", "reference", "blender_roundtrip"), tangent


# ------------------------------------------------------------------------------------------
# Cases: a case is one F-curve: keys, handle types, smoothing, extrapolation, Cycles
# ------------------------------------------------------------------------------------------


def K(frame, value, lt="AUTO_CLAMPED", rt=None, hl=None, hr=None, ipo="BEZIER", easing="AUTO", back=None, amp=None, period=None):
    return dict(frame=frame, value=value, lt=lt, rt=rt or lt, hl=hl, hr=hr, ipo=ipo, easing=easing, back=back, amp=amp, period=period)


def case(desc, keys, smoothing="NONE", extrapolation="CONSTANT", cycles=None):
    return dict(desc=desc, keys=keys, smoothing=smoothing, extrapolation=extrapolation, cycles=cycles)


def uneven_frames(rng, n, start=0.0):
    frames, f = [], start
    for _ in range(n):
        frames.append(f)
        f += rng.choice([1.0, 2.5, 4.0, 7.0, 12.0, 20.0]) * rng.uniform(0.6, 1.4)
    return frames


def random_handles(rng, frames, i):
    """Offsets in frames for a Free or Aligned key: lengths from short to past the segment."""
    before = frames[i] - frames[i - 1] if i else 5.0
    after = frames[i + 1] - frames[i] if i + 1 < len(frames) else 5.0
    hl = (-before * rng.choice([0.1, 0.33, 0.6, 1.3]), rng.uniform(-3, 3))
    hr = (after * rng.choice([0.1, 0.33, 0.6, 1.3]), rng.uniform(-3, 3))
    return hl, hr


def handle_cases(rng, smoothings, extrapolations):
    out = []
    for smoothing in smoothings:
        for extrapolation in extrapolations:
            for typ in ("AUTO_CLAMPED", "AUTO", "VECTOR"):
                frames = uneven_frames(rng, 7)
                values = [0.0, 2.0, 2.0, -1.0, 3.5, 3.0, 0.5]
                out.append(case(f"all {typ}, uneven spacing, a flat run and extremes", [K(f, v, typ) for f, v in zip(frames, values)], smoothing, extrapolation))
            for typ in ("FREE", "ALIGNED"):
                frames = uneven_frames(rng, 5)
                keys = []
                for i, f in enumerate(frames):
                    hl, hr = random_handles(rng, frames, i)
                    keys.append(K(f, rng.uniform(-4, 4), typ, hl=hl, hr=hr))
                out.append(case(f"all {typ}, random handles (some past the segment)", keys, smoothing, extrapolation))
            for _ in range(2):
                frames = uneven_frames(rng, 9)
                keys = []
                for i, f in enumerate(frames):
                    hl, hr = random_handles(rng, frames, i)
                    keys.append(K(f, rng.uniform(-4, 4), rng.choice(TYPES), rng.choice(TYPES), hl=hl, hr=hr))
                out.append(case("random handle type on each side of each key", keys, smoothing, extrapolation))
    return out


def easing_params(rng):
    back = rng.choice([0.0, rng.uniform(0.2, 3.0)])
    amp = rng.choice([0.0, rng.uniform(0.1, 0.9), rng.uniform(1.0, 6.0)])
    period = rng.choice([0.0, rng.uniform(1.0, 12.0)])
    return dict(back=back, amp=amp, period=period)


def interpolation_cases(rng, ipos=IPOS, easings=EASINGS):
    out = []
    for n, ipo in enumerate(ipos):
        for m, easing in enumerate(easings):
            frames = uneven_frames(rng, 5, rng.uniform(-10, 10))
            keys = [K(f, rng.uniform(-5, 5), rng.choice(TYPES), rng.choice(TYPES), *random_handles(rng, frames, i), ipo=ipo, easing=easing, **easing_params(rng)) for i, f in enumerate(frames)]
            extrapolation = "LINEAR" if (n + m) % 2 else "CONSTANT"
            smoothing = "CONT_ACCEL" if (n + 2 * m) % 3 == 0 else "NONE"
            out.append(case(f"every key {ipo} {easing}, random back/amplitude/period", keys, smoothing, extrapolation))
    return out


def special_cases(rng):
    out = []
    for easing in EASINGS:
        keys = [K(0.0, 0.0, ipo="ELASTIC", easing=easing, amp=0.0, period=0.0), K(20.0, 3.0, ipo="ELASTIC", easing=easing, amp=0.0, period=0.0), K(31.0, -2.0, ipo="ELASTIC", easing=easing, amp=5.0, period=2.5), K(40.0, -1.0)]
        out.append(case(f"Elastic {easing}: amplitude 0 and period 0 (Blender's own choices), then amplitude above the change", keys))
    out.append(case("Back with back 0 and back 3", [K(0.0, 1.0, ipo="BACK", back=0.0), K(10.0, 4.0, ipo="BACK", easing="EASE_IN_OUT", back=3.0), K(25.0, 0.0)]))
    for smoothing in ("NONE", "CONT_ACCEL"):
        for extrapolation in ("CONSTANT", "LINEAR"):
            for _ in range(2):
                frames = uneven_frames(rng, 10, rng.uniform(-30, 0))
                keys = [K(f, rng.uniform(-5, 5), rng.choice(TYPES), rng.choice(TYPES), *random_handles(rng, frames, i), ipo=rng.choice(IPOS), easing=rng.choice(EASINGS), **easing_params(rng)) for i, f in enumerate(frames)]
                out.append(case("random interpolation, easing and handles per key", keys, smoothing, extrapolation))
    # Linear extrapolation depends on the end key's own interpolation.
    ends = [("CONSTANT", "CONSTANT"), ("LINEAR", "LINEAR"), ("ELASTIC", "BACK"), ("BEZIER", "LINEAR"), ("LINEAR", "BEZIER")]
    for first, last in ends:
        keys = [K(0.0, 1.0, "AUTO", ipo=first), K(8.0, 3.0, ipo="BEZIER"), K(13.0, 2.0, "FREE", hl=(-2.0, 1.5), hr=(3.0, 0.5), ipo=last)]
        out.append(case(f"Linear extrapolation, first key {first}, last key {last}", keys, "NONE", "LINEAR"))
    for typ in ("FREE", "VECTOR", "AUTO"):
        out.append(case(f"Linear extrapolation along {typ} end handles", [K(-5.0, 2.0, typ, hl=(-3.0, -1.0), hr=(2.0, 2.0)), K(6.0, -1.0, typ, hl=(-1.0, 2.0), hr=(4.0, 0.25))], "CONT_ACCEL", "LINEAR"))
    out.append(case("one key, Linear extrapolation", [K(3.0, 1.5, "FREE", hl=(-2.0, -1.0), hr=(2.0, 1.0))], "NONE", "LINEAR"))
    out.append(case("one key, Constant", [K(3.0, -1.5)]))
    # Blender's float32 keeps ~7 digits: large values stay away from 0 (the bound is relative to
    # the value), large times have values of ordinary size.
    out.append(case("large times (frames 1000 to 1100)", [K(1000.0 + f, v) for f, v in ((0.0, 1.0), (37.5, -2.0), (61.25, 0.5), (100.0, 3.0))], "CONT_ACCEL", "LINEAR"))
    out.append(case("large values (1e4 to 3e4)", [K(f, 1e4 * v) for f, v in ((0.0, 1.0), (7.5, 2.5), (11.25, 1.5), (20.0, 3.0))], "CONT_ACCEL", "LINEAR"))
    out.append(case("small values, fractional frames", [K(f, 1e-4 * v) for f, v in ((0.25, 1.0), (3.75, -2.0), (4.125, 0.5), (9.5, 3.0))], "CONT_ACCEL"))
    return out


def cycle_cases(rng, smoothings=("NONE", "CONT_ACCEL")):
    out = []
    for smoothing in smoothings:
        for mode in ("REPEAT", "REPEAT_OFFSET"):
            for extrapolation in ("CONSTANT", "LINEAR"):
                frames = uneven_frames(rng, 6, rng.uniform(-5, 5))
                values = [rng.uniform(-3, 3) for _ in frames]
                out.append(case(f"Cycles {mode} both sides, Auto Clamped (handles through the cycle), ends differ", [K(f, v) for f, v in zip(frames, values)], smoothing, extrapolation, (mode, mode)))
            frames = uneven_frames(rng, 5)
            values = [1.0, 3.0, -2.0, 0.5, 1.0]
            out.append(case(f"Cycles {mode}, Auto Clamped, first value = last value (a seamless loop)", [K(f, v) for f, v in zip(frames, values)], smoothing, "CONSTANT", (mode, mode)))
            frames = uneven_frames(rng, 6)
            out.append(case(f"Cycles {mode}, all Auto", [K(f, rng.uniform(-3, 3), "AUTO") for f in frames], smoothing, "CONSTANT", (mode, mode)))
            frames = uneven_frames(rng, 5)
            keys = [K(f, rng.uniform(-3, 3)) for f in frames]
            keys[0].update(lt="FREE", rt="FREE", hl=(-2.0, 1.0), hr=(2.0, -1.0))
            out.append(case(f"Cycles {mode}, Free first key (handles not through the cycle)", keys, smoothing, "CONSTANT", (mode, mode)))
            frames = uneven_frames(rng, 6)
            keys = [K(f, rng.uniform(-3, 3), rng.choice(TYPES), rng.choice(TYPES), *random_handles(rng, frames, i), ipo=rng.choice(IPOS), easing=rng.choice(EASINGS), **easing_params(rng)) for i, f in enumerate(frames)]
            out.append(case(f"Cycles {mode}, random types and interpolation", keys, smoothing, "CONSTANT", (mode, mode)))
        for before, after, extrapolation in (("REPEAT", "REPEAT_OFFSET", "CONSTANT"), ("REPEAT_OFFSET", "REPEAT", "LINEAR"), ("NONE", "REPEAT", "LINEAR"), ("REPEAT_OFFSET", "NONE", "CONSTANT"), ("NONE", "REPEAT_OFFSET", "CONSTANT")):
            frames = uneven_frames(rng, 5)
            out.append(case(f"Cycles {before} before, {after} after, extrapolation {extrapolation}", [K(f, rng.uniform(-3, 3)) for f in frames], smoothing, extrapolation, (before, after)))
    return out


def cases_24(rng):
    return [
        ("Handles", handle_cases(rng, ("NONE", "CONT_ACCEL"), ("CONSTANT", "LINEAR"))),
        ("Interpolation", interpolation_cases(rng)),
        ("Special", special_cases(rng)),
        ("Cycles", cycle_cases(rng)),
        ('Odd "name" ü:x', [case("an object name with a quote, a colon and a non-ASCII letter", [K(0.0, 0.0), K(10.0, 1.0)])]),
    ]


def cases_30(rng):
    return [
        ("Handles30", handle_cases(rng, ("CONT_ACCEL",), ("CONSTANT", "LINEAR"))),
        ("Interpolation30", interpolation_cases(rng, ["ELASTIC", "BACK", "BOUNCE", "EXPO", "BEZIER"])),
        ("Special30", special_cases(rng)[:5]),
        ("Cycles30", cycle_cases(rng, ("CONT_ACCEL",))),
    ]


# ------------------------------------------------------------------------------------------
# Building, sampling
# ------------------------------------------------------------------------------------------


def build_fcurve(obj, path, index, c):
    fc = tangent_io.fcurve_collection(obj).new(path, index=index)
    for k in c["keys"]:
        fc.keyframe_points.insert(k["frame"], k["value"])
    fc.update()
    for point, k in zip(fc.keyframe_points, c["keys"]):
        point.handle_left_type, point.handle_right_type = k["lt"], k["rt"]
        x, y = point.co
        if k["hl"] is not None:
            point.handle_left = (x + k["hl"][0], y + k["hl"][1])
        if k["hr"] is not None:
            point.handle_right = (x + k["hr"][0], y + k["hr"][1])
        point.interpolation, point.easing = k["ipo"], k["easing"]
        for attr, key in (("back", "back"), ("amplitude", "amp"), ("period", "period")):
            if k[key] is not None:
                setattr(point, attr, k[key])
    fc.auto_smoothing = c["smoothing"]
    fc.extrapolation = c["extrapolation"]
    if c["cycles"]:
        m = fc.modifiers.new("CYCLES")
        m.mode_before, m.mode_after = c["cycles"]
    fc.update()
    return fc


def build(groups):
    """Objects with one F-curve per case; [(object, F-curve, case)]."""
    out = []
    for name, group in groups:
        obj = bpy.data.objects.new(name, None)
        bpy.context.scene.collection.objects.link(obj)
        obj.animation_data_create()
        obj.animation_data.action = bpy.data.actions.new(name + "Action")
        extra = max(0, len(group) - len(SLOTS))
        if extra:
            obj["extra"] = [0.0] * extra
        for i, c in enumerate(group):
            path, index = SLOTS[i] if i < len(SLOTS) else ('["extra"]', i - len(SLOTS))
            out.append((obj, build_fcurve(obj, path, index, c), c))
    return out


def sample_frames(fc):
    frames = [k.co[0] for k in fc.keyframe_points]
    first, last = frames[0], frames[-1]
    span = max(last - first, 1.0)
    lo, hi = first - 1.25 * span - 2.0, last + 1.25 * span + 2.0
    cyclic = any(m.type == "CYCLES" for m in fc.modifiers) and last > first
    period = last - first

    def near_key(t):
        if cyclic:
            for f in frames:
                k = round((t - f) / period)
                if abs(t - (f + k * period)) < KEY_MARGIN:
                    return True
            return False
        return any(abs(t - f) < KEY_MARGIN for f in frames)

    out = set(frames)
    for i in range(SAMPLES_PER_CURVE - len(frames)):
        t = f32(lo + (hi - lo) * (i + 0.37) / (SAMPLES_PER_CURVE - len(frames)))
        while near_key(t):
            t = f32(t + 2.5 * KEY_MARGIN)
        out.add(t)
    return sorted(out)


def scene_fps():
    return tangent_io.scene_fps(bpy.context.scene)


def shortest(x, same):
    """The shortest decimal form of x for which same(form) holds (for a smaller file)."""
    for digits in range(6, 18):
        y = float("%.*g" % (digits, x))
        if same(y):
            return y
    return x


def record(built):
    fps = scene_fps()
    tracks, cases = {}, {}
    for obj, fc, c in built:
        name = tangent_io.track_name(obj.name, fc.data_path, fc.array_index)
        series, keys = [], {k.co[0] for k in fc.keyframe_points}
        for t in sample_frames(fc):
            v = fc.evaluate(t)  # a float32, widened
            # At a key, exactly the key's time as the file has it (frame / fps); elsewhere (at
            # least 2e-3 frames from a key) the shortest decimal of the same float32 frame.
            seconds = t / fps if t in keys else shortest(t / fps, lambda s: f32(s * fps) == t and abs(s - t / fps) <= 1e-10 * (1 + abs(t / fps)))
            series.append([seconds, shortest(v, lambda w: f32(w) == v)])
        tracks[name] = series
        cases[name] = c["desc"] + f"; smoothing {c['smoothing']}, extrapolation {c['extrapolation']}" + (f", Cycles {c['cycles'][0]}/{c['cycles'][1]}" if c["cycles"] else "")
    note = ("made by tools/blender/tangent_roundtrip.py: fcurve.evaluate at each time (seconds x fps is the float32 frame "
            "Blender evaluated at), values as the shortest decimals of Blender's float32 results")
    return {"blender": bpy.app.version_string, "fps": fps, "note": note, "cases": cases, "tracks": tracks}


def write_samples(path, samples):
    """One line per case and per track, for readable diffs."""
    def block(d):
        return "{\n" + ",\n".join(json.dumps(k, ensure_ascii=False) + ": " + json.dumps(v, separators=(",", ":")) for k, v in d.items()) + "\n}"

    head = ",\n".join(f"{json.dumps(k)}: {json.dumps(samples[k])}" for k in ("blender", "fps", "note"))
    with open(path, "w", encoding="utf-8") as f:
        f.write("{\n" + head + ',\n"cases": ' + block(samples["cases"]) + ',\n"tracks": ' + block(samples["tracks"]) + "\n}\n")


def snapshot(fc):
    keys = [(tuple(k.co), tuple(k.handle_left), tuple(k.handle_right), k.handle_left_type, k.handle_right_type, k.interpolation, k.easing, k.back, k.amplitude, k.period) for k in fc.keyframe_points]
    mods = [(m.type, getattr(m, "mode_before", None), getattr(m, "mode_after", None)) for m in fc.modifiers]
    return dict(keys=keys, smoothing=fc.auto_smoothing, extrapolation=fc.extrapolation, modifiers=mods)


# ------------------------------------------------------------------------------------------
# Checks
# ------------------------------------------------------------------------------------------


def clear_scene(fps):
    for o in list(bpy.data.objects):
        bpy.data.objects.remove(o)
    for a in list(bpy.data.actions):
        bpy.data.actions.remove(a)
    bpy.context.scene.render.fps, bpy.context.scene.render.fps_base = fps, 1.0


def close(a, b, scale=1.0):
    return abs(a - b) <= TOLERANCE * (scale + abs(b))


def find_fcurve(name):
    split = tangent_io.split_track_name(name, lambda n: n in bpy.data.objects)
    obj = bpy.data.objects.get(split[0]) if split else None
    if obj is None or obj.animation_data is None or obj.animation_data.action is None:
        return None
    return tangent_io.fcurve_collection(obj).find(split[1], index=split[2])


def compare_keys(name, before, fc):
    after = snapshot(fc)
    both_cyclic = before["modifiers"] and all(m in ("REPEAT", "REPEAT_OFFSET") for m in before["modifiers"][0][1:])
    for field in ("smoothing", "extrapolation", "modifiers"):
        if field == "extrapolation" and both_cyclic:
            continue  # not in the file: Cycles on both sides import with Constant extrapolation
        if before[field] != after[field]:
            fail(f"{name}: {field} {after[field]!r}, exported {before[field]!r}")
    if len(before["keys"]) != len(after["keys"]):
        fail(f"{name}: {len(after['keys'])} keys, exported {len(before['keys'])}")
        return 0
    for i, (b, a) in enumerate(zip(before["keys"], after["keys"])):
        points_ok = all(close(x, y) for pb, pa in zip(b[:3], a[:3]) for x, y in zip(pb, pa))
        if not points_ok or b[3:7] != a[3:7] or not all(close(x, y) for x, y in zip(b[7:], a[7:])):
            fail(f"{name}: key {i}: {a}, exported {b}")
    return len(before["keys"])


def check_import(samples, snapshots, fps, label, exact_keys=True, tolerance=TOLERANCE):
    curves = checked = keys = 0
    worst, where = 0.0, "-"
    for name, series in samples["tracks"].items():
        fc = find_fcurve(name)
        if fc is None:
            fail(f"{label}: {name}: no F-curve after import")
            continue
        curves += 1
        if exact_keys:
            keys += compare_keys(name, snapshots[name], fc)
        for seconds, want in series:
            got = fc.evaluate(seconds * fps)
            checked += 1
            if abs(got - want) / (1 + abs(want)) > worst:
                worst, where = abs(got - want) / (1 + abs(want)), f"{name} at {seconds} s"
            if abs(got - want) > tolerance * (1 + abs(want)):
                fail(f"{label}: {name} ({samples['cases'][name]}): t = {seconds} s: {got}, before export {want}")
    print(f"{label}: {curves} curves, {keys} keys and {checked} samples checked; largest |difference| / (1 + |value|) {worst:.3g} ({where}; bound {tolerance:g})")
    return curves, checked


def roundtrip(outdir, suffix, fps, groups, rng_seed):
    clear_scene(fps)
    built = build(groups(random.Random(rng_seed)))
    samples = record(built)
    snapshots = {tangent_io.track_name(o.name, fc.data_path, fc.array_index): snapshot(fc) for o, fc, _ in built}
    for o in bpy.context.scene.objects:
        o.select_set(o.name in {b[0].name for b in built})
    ron = os.path.join(outdir, f"roundtrip{suffix}.ron")
    if bpy.ops.export_anim.tangent_ron(filepath=ron, use_selection=True) != {"FINISHED"}:
        fail(f"export to {ron} did not finish")
    write_samples(os.path.join(outdir, f"samples{suffix}.json"), samples)
    with open(os.path.join(outdir, f"samples{suffix}.json"), encoding="utf-8") as f:
        if json.load(f) != samples:
            fail(f"samples{suffix}.json does not read back as written")
    with open(ron, encoding="utf-8") as f:
        parsed_fps, tracks = tangent_io.parse_project(f.read(), ron)
    if parsed_fps != fps or sorted(t.name for t in tracks) != sorted(snapshots):
        fail(f"{ron}: fps {parsed_fps} or track names differ from the curves built")
    print(f"exported {len(tracks)} tracks, {sum(len(t.keys) for t in tracks)} keys at {fps} fps to {ron}; {sum(len(s) for s in samples['tracks'].values())} samples in samples{suffix}.json")
    clear_scene(60)
    if bpy.ops.import_anim.tangent_ron(filepath=ron) != {"FINISHED"}:
        fail(f"import of {ron} did not finish")
    if scene_fps() != fps:
        fail(f"import into an empty scene left it at {scene_fps()} fps, the file's is {fps}")
    return ron, samples, snapshots, check_import(samples, snapshots, fps, f"Blender -> Tangent -> Blender at {fps:g} fps")


# ------------------------------------------------------------------------------------------
# A project as Tangent writes it
# ------------------------------------------------------------------------------------------

NATIVE = """// As Tangent writes a project: tracks of every kind the add-on takes, and some it must skip.
(
    version: 4,
    fps: 25.0,
    tracks: [
        (name: "n step", kind: Scalar, interpolation: Step, keys: [(time: 0.0, value: [1.0]), (time: 0.5, value: [3.0]), (time: 1.25, value: [-2.0])]),
        (name: "n linear vec2", kind: Vec2, interpolation: Linear, pre_infinity: Linear, post_infinity: Linear,
         keys: [(time: -0.5, value: [0.0, 1.0]), (time: 0.4, value: [2.0, -1.0]), (time: 2.0, value: [1.0, 4.0])]),
        (name: "n vec3", kind: Vec3, interpolation: Bezier, keys: [
            (time: 0.0, value: [0.0, 1.0, 2.0]),
            (time: 1.0, value: [2.0, 0.0, 2.5], handles: (Free, Aligned), left: [(-0.3, -0.5), (-0.2, 0.0), (-0.5, 1.0)], right: [(0.25, 0.5), (0.4, 0.0), (0.3, -0.6)]),
            (time: 1.6, value: [1.0, 3.0, 0.0], handles: (Vector, Auto)),
            (time: 3.0, value: [4.0, 2.0, 1.0], handles: (Auto, Auto)),
        ]),
        (name: "n euler", kind: Euler, order: ZXY, interpolation: Linear, keys: [(time: 0.0, value: [0.0, 0.5, 1.0]), (time: 2.0, value: [3.0, -1.0, 12.566370614359172])]),
        (name: "n vec4", kind: Vec4, interpolation: Step, post_infinity: Cycle, keys: [(time: 0.0, value: [1.0, 0.8, 0.2, 1.0]), (time: 1.0, value: [0.2, 0.6, 1.0, 0.5]), (time: 1.5, value: [0.2, 0.6, 1.0, 0.5])]),
        (name: "n quat step", kind: Quat, interpolation: Step, keys: [(time: 0.0, value: [0.0, 0.0, 0.0, 1.0]), (time: 1.0, value: [0.0, 0.6, 0.0, 0.8])]),
        (name: "n quat bezier", kind: Quat, interpolation: Bezier, keys: [(time: 0.0, value: [0.0, 0.0, 0.0, 1.0]), (time: 1.0, value: [0.0, 0.6, 0.0, 0.8]), (time: 2.0, value: [0.6, 0.0, 0.0, 0.8])]),
        (name: "n auto linear", kind: Scalar, interpolation: Bezier, pre_infinity: Linear, post_infinity: Linear,
         keys: [(time: 0.0, value: [0.0], handles: (Auto, Auto)), (time: 0.7, value: [2.0], handles: (Auto, Auto)), (time: 1.0, value: [1.0], handles: (Auto, Auto))]),
        (name: "n cycle free ends", kind: Scalar, interpolation: Bezier, pre_infinity: CycleOffset, post_infinity: Cycle, keys: [
            (time: 0.0, value: [0.0], handles: (Free, Free), left: [(-0.2, -0.1)], right: [(0.2, 0.4)]),
            (time: 0.6, value: [1.5]),
            (time: 1.2, value: [1.0], handles: (Free, Free), left: [(-0.3, 0.2)], right: [(0.2, 0.0)]),
        ]),
        (name: "n cycle auto", kind: Scalar, interpolation: Bezier, pre_infinity: Cycle, post_infinity: CycleOffset,
         keys: [(time: 0.0, value: [0.0]), (time: 0.3, value: [2.0]), (time: 0.7, value: [-1.0]), (time: 1.0, value: [0.5])]),
        (name: "n eased", kind: Scalar, interpolation: Bezier, auto_smoothing: ContinuousAcceleration, pre_infinity: Linear, post_infinity: Linear, keys: [
            (time: 0.0, value: [0.0], interpolation: Elastic, easing: Out, amplitude: 2.0, period: 0.1),
            (time: 0.5, value: [1.0], interpolation: Back, back: 2.5),
            (time: 0.8, value: [0.5], handles: (Auto, Vector), interpolation: Bounce, easing: InOut),
            (time: 1.2, value: [2.0]),
            (time: 1.5, value: [1.0], handles: (Aligned, Aligned), left: [(-0.1, 0.3)], right: [(0.2, -0.6)], interpolation: Expo, easing: In),
            (time: 2.0, value: [3.0]),
        ]),
        (name: "Native:location[2]", kind: Scalar, interpolation: Bezier, keys: [(time: 0.0, value: [1.0]), (time: 0.4, value: [0.0]), (time: 1.0, value: [2.0])]),
        (name: "Native:[\\"weight\\"][0]", kind: Scalar, interpolation: Linear, keys: [(time: 0.0, value: [0.0]), (time: 1.0, value: [1.0])]),
        (name: "n jump linear", kind: Scalar, interpolation: Linear, keys: [(time: 0.0, value: [0.0]), (time: 0.5, value: [1.0]), (time: 0.5, value: [3.0]), (time: 0.5002, value: [-1.0]), (time: 1.0, value: [2.0])]),
        (name: "n jump bezier", kind: Vec2, interpolation: Bezier, keys: [
            (time: 0.0, value: [0.0, 1.0], handles: (Free, Free), left: [(-0.1, 0.0), (-0.1, 0.2)], right: [(0.1, 0.5), (0.15, 0.0)]),
            (time: 0.4, value: [2.0, 0.0], handles: (Free, Free), left: [(-0.1, -0.5), (-0.2, 0.3)], right: [(0.1, 0.0), (0.1, 0.0)]),
            (time: 0.4, value: [-1.0, 2.0], handles: (Free, Free), left: [(-0.1, 0.0), (-0.1, 0.0)], right: [(0.1, 0.5), (0.2, -1.0)]),
            (time: 1.0, value: [1.0, 1.5], handles: (Free, Free), left: [(-0.2, 0.4), (-0.3, 0.0)], right: [(0.2, 0.0), (0.2, 0.0)]),
        ]),
        (name: "n pingpong", kind: Scalar, interpolation: Linear, pre_infinity: PingPong, keys: [(time: 0.0, value: [0.0]), (time: 1.0, value: [1.0])]),
        (name: "n mixed ends", kind: Scalar, interpolation: Linear, pre_infinity: Constant, post_infinity: Linear, keys: [(time: 0.0, value: [0.0]), (time: 1.0, value: [1.0])]),
        (name: "n tcb", kind: Vec2, interpolation: Tcb, tangents: TimeAdjusted, color: Some(Rgb(1, 2, 3)), keys: [(time: 0.0, value: [0.0, 0.0]), (time: 1.0, value: [1.0, 1.0], tension: 0.5)]),
        (name: "n cubic", kind: Scalar, interpolation: Cubic, ending_start: ZeroSlope, keys: [(time: 0.0, value: [0.0]), (time: 1.0, value: [1.0])]),
        (name: "n squad", kind: Quat, interpolation: Squad, keys: [(time: 0.0, value: [0.0, 0.0, 0.0, 1.0]), (time: 1.0, value: [0.0, 0.6, 0.0, 0.8])]),
        (name: "n slerp", kind: Quat, interpolation: Slerp, binding: Gltf(animation: "Walk", node: 3, node_name: Some("Hips"), property: Rotation),
         keys: [(time: 0.0, value: [0.0, 0.0, 0.0, 1.0]), (time: 1.0, value: [0.0, 0.6, 0.0, 0.8])]),
    ],
)
"""

# Where a native track's values are compared: (lo, hi) in seconds, default the keys ± 1.5 s.
NATIVE_RANGE = {"n pingpong": (0.0, 3.0), "n mixed ends": (0.0, 3.0)}


def tangent_values(binary, path, name, times):
    out = subprocess.run([binary, "eval", path, "--track", name, "--times", ",".join(repr(t) for t in times)], capture_output=True, text=True)
    if out.returncode != 0:
        fail(f"tangent eval {name}: {out.stderr.strip()}")
        return None
    return [[float(x) for x in line.split()] for line in out.stdout.splitlines()]


def check_native(tangent):
    clear_scene(24)
    path = os.path.join(tempfile.mkdtemp(), "native.ron")
    with open(path, "w", encoding="utf-8") as f:
        f.write(NATIVE)
    fps, tracks = tangent_io.parse_project(NATIVE, path)
    result = tangent_io.import_project(path, bpy.context.scene)
    messages = result.skipped + result.warnings
    for line in messages:
        print("  report:", line)
    expected_skips = {"n tcb": "Convert to Bézier", "n cubic": "Convert to Bézier", "n squad": "Euler", "n slerp": "Euler"}
    for name, hint in expected_skips.items():
        if not any(f'"{name}"' in m and "skipped" in m and hint in m for m in result.skipped):
            fail(f"native: no skip message for {name} mentioning {hint!r}")
    for name in ("n pingpong", "n mixed ends"):
        if not any(f'"{name}"' in m for m in result.warnings):
            fail(f"native: no warning for {name}")
    if scene_fps() != fps:
        fail(f"native: scene at {scene_fps()} fps after importing a {fps} fps project into an empty scene")
    if "Native" not in bpy.data.objects or bpy.data.objects["Native"].get("weight") is None:
        fail('native: "Native" or its custom property ["weight"] was not created')
    if bpy.data.objects.get("n euler") is None or bpy.data.objects["n euler"].rotation_mode != "ZXY":
        fail("native: the Euler track's Empty is not in ZXY order")
    curves = checked = 0
    usable = tangent is not None
    for track in tracks:
        made = result.fcurves.get(track.name)
        if not made:
            continue
        curves += len(made)
        lo, hi = NATIVE_RANGE.get(track.name, (track.keys[0].time - 1.5, track.keys[-1].time + 1.5))
        times = [lo + (hi - lo) * (i + 0.41) / 97 for i in range(97)]
        times = [t for t in times if all(abs(t - k.time) * fps > KEY_MARGIN for k in track.keys)]
        ours = [[fc.evaluate(t * fps) for obj, fc, c in sorted(made, key=lambda m: m[2])] for t in times]
        if track.kind == "Quat":
            ours = [[x / math.sqrt(sum(y * y for y in q)) for x in q] for q in ours]
        if not usable:
            continue
        theirs = tangent_values(tangent, path, track.name, times)
        if theirs is None:
            usable = False  # one message: `tangent` could not read the file or the track
            continue
        for t, a, b in zip(times, ours, theirs):
            checked += 1
            if not all(close(x, y) for x, y in zip(a, b)):
                fail(f"native: {track.name}: t = {t}: Blender {a}, tangent eval {b}")
    print(f"Tangent -> Blender (a project as Tangent writes it): {len(result.fcurves)} tracks imported as {curves} F-curves, {len(result.skipped)} skipped, {len(result.warnings)} warnings; "
          + (f"{checked} values checked against `tangent eval`" if tangent else "no --tangent binary: values not compared"))
    return curves


# ------------------------------------------------------------------------------------------
# Errors and warnings
# ------------------------------------------------------------------------------------------

MALFORMED = [
    ("(\n    version: 4,\n    fps: 24.0,\n    tracks: [\n        (name: \"a\", kind: Scalar interpolation: Step, keys: []),\n    ],\n)\n", ":5:34: expected `,` or `)`"),
    ("(version: 4, fps: 24.0, tracks: [(name: \"a\", kind: Scalar, interpolation: Bouncy, keys: [(time: 0.0, value: [1.0])])])", ":1:60: track \"a\": `interpolation` is `Bouncy`"),
    ("(version: 4, fps: 24.0,\n tracks: [(name: \"a\", kind: Vec2, interpolation: Linear,\n  keys: [(time: 0.0, value: [1.0])])])", ":3:22: track \"a\", key 0: `value` must be a list of 2 numbers"),
    ("(version: 9, fps: 24.0, tracks: [])", ":1:2: file format version 9 is newer"),
    ("(version: 4, fps: 24.0, tracks: [\n  (name: \"a\", kind: Scalar, interpolation: Linear, keys: [(time: 1.0, value: [1.0]),\n    (time: 0.5, value: [2.0])])])", ":3:6: track \"a\", key 1: time 0.5 is before"),
    ("(version: 4, /* unterminated\n fps: 24.0", ":1:14: unterminated block comment"),
    ("(version: 4, fps: 24.0, tracks: [(name: \"a\", kind: Scalar, interpolation: Bezier,\n keys: [(time: 0.0, value: [1.0], handles: (Free, Auto))])])", ":2:35: track \"a\", key 0: a Free left handle needs `left`"),
    ("(version: 4, fps: 24.0, tracks: [(name: \"a\\q\", kind: Scalar)])", ":1:43: unknown escape `\\q`"),
    ("(version: 4, fps: 24.0, tracks: [(name: \"a\", kind: Scalar, interpolation: Linear,\n keys: [(time: 0.0, value: [1.0], tensoin: 0.5)])])", ":2:35: unknown field `tensoin` in track \"a\", key 0; did you mean `tension`?"),
]


def check_errors():
    for text, expected in MALFORMED:
        try:
            tangent_io.parse_project(text, "bad.ron")
            fail(f"malformed input accepted: {text!r}")
        except tangent_io.RonError as e:
            if expected not in str(e):
                fail(f"malformed input: {str(e)!r} does not contain {expected!r}")
    # Export warnings: modifiers and Cycles modes Tangent has no equivalent for.
    clear_scene(24)
    built = build([("Warn", [case("mirror", [K(0.0, 0.0), K(5.0, 1.0)], cycles=("MIRROR", "REPEAT")), case("noise", [K(0.0, 0.0), K(5.0, 1.0)]), case("limited", [K(0.0, 0.0), K(5.0, 1.0)], cycles=("REPEAT", "REPEAT")),
                          case("cyclic, linear", [K(0.0, 0.0, "FREE", hl=(-1.0, 0.0), hr=(1.0, 1.0)), K(5.0, 1.0), K(9.0, 0.5)], extrapolation="LINEAR", cycles=("REPEAT", "REPEAT"))])])
    built[1][1].modifiers.new("NOISE")
    built[2][1].modifiers[0].cycles_after = 2
    text, tracks, keys, warnings = tangent_io.project_text([built[0][0]], bpy.context.scene)
    for needle in ("Cycles mode Mirror before the keys", "Noise modifier ignored", "a limited number of cycles", "Linear extrapolation under Cycles on both sides"):
        if not any(needle in w for w in warnings):
            fail(f"export warnings {warnings} lack {needle!r}")
    if "pre_infinity: Constant,\n            post_infinity: Cycle," not in text:
        fail("the mirror/repeat curve is not exported as Constant/Cycle")
    print(f"errors and warnings: {len(MALFORMED)} malformed files refused at their line, {len(warnings)} export warnings as expected")


def main():
    outdir, tangent = args()
    os.makedirs(outdir, exist_ok=True)
    if tangent_io.running_as_module():
        bpy.ops.wm.read_factory_settings()  # as `blender --factory-startup`
    tangent_io.register()
    print(f"Blender {bpy.app.version_string}")
    ron24, samples24, snaps24, (c24, s24) = roundtrip(outdir, "", 24, cases_24, 2024)
    ron30, samples30, snaps30, (c30, s30) = roundtrip(outdir, "_30fps", 30, cases_30, 3030)
    # The 30 fps file into a scene that already has animation at 24 fps: kept at 24 fps.
    clear_scene(24)
    bpy.ops.import_anim.tangent_ron(filepath=ron24)
    result = tangent_io.import_project(ron30, bpy.context.scene)
    if scene_fps() != 24 or not any("30 fps" in w and "24 fps" in w for w in result.warnings):
        fail(f"30 fps file into an animated 24 fps scene: scene at {scene_fps()}, warnings {result.warnings[:3]}")
    # Keys move to other float32 frames (seconds x 24): values agree within float32 arithmetic.
    c30b, s30b = check_import(samples30, snaps30, 24, "the 30 fps file in an animated 24 fps scene (by seconds)", exact_keys=False, tolerance=1e-4)
    native = check_native(tangent)
    check_errors()
    curves, samples = c24 + c30 + c30b + native, s24 + s30 + s30b
    print(f"{curves} curves and {samples} samples checked, {len(FAILURES)} failures")
    if FAILURES or not c24 or not c30 or not s24:
        sys.exit(1)


if __name__ == "__main__":
    try:
        main()
    except SystemExit as e:
        tangent_io.script_exit(0 if e.code is None else e.code if isinstance(e.code, int) else 1)
    except BaseException:
        import traceback

        traceback.print_exc()
        tangent_io.script_exit(1)
    tangent_io.script_exit(0)
