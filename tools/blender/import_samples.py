"""Test files for Tangent's glTF import (SPEC.md section 11), written by Blender's own
glTF exporter, for what tests/import-samples/ from the shared set does not cover:
morph-target weights, a glTF with its buffer in a separate .bin file, several
animations, STEP rotations and CUBICSPLINE rotations and scales.

Run headless (Blender 3.4, Debian package; its glTF add-on needs python3-numpy):

    blender -b --factory-startup --python tools/blender/import_samples.py -- OUT_DIR

OUT_DIR defaults to tests/import-samples.  Writes blender_weights_separate.gltf (+ .bin):

- "Blob": a cube with two shape keys, "Smile" and "Frown", keyed LINEAR at frames
  1, 12, 30 and 48 (a `weights` channel with two morph targets), and a quaternion rotation
  keyed CONSTANT (a STEP rotation);
- "Spinner": location, quaternion rotation and scale keyed BEZIER with free handles
  (CUBICSPLINE channels), in its own action, so its own animation.
"""

import os
import sys

import numpy

numpy.bool = bool  # Blender 3.4's glTF exporter uses numpy.bool, gone from numpy 1.24
import bpy  # noqa: E402

argv = sys.argv[sys.argv.index("--") + 1:] if "--" in sys.argv else []
out_dir = os.path.abspath(argv[0] if argv else "tests/import-samples")
os.makedirs(out_dir, exist_ok=True)

bpy.ops.wm.read_factory_settings(use_empty=True)
scene = bpy.context.scene
scene.render.fps = 24
scene.frame_start, scene.frame_end = 1, 48


def keyframes(obj_or_key, path, index, frames, interpolation, handle_type=None):
    """Sets the interpolation (and handle type) of every key on one F-curve."""
    action = obj_or_key.animation_data.action
    for fc in action.fcurves:
        if fc.data_path == path and (index is None or fc.array_index == index):
            for kp in fc.keyframe_points:
                kp.interpolation = interpolation
                if handle_type:
                    kp.handle_left_type = kp.handle_right_type = handle_type


# Blob: shape keys (LINEAR) and a stepped quaternion rotation.
bpy.ops.mesh.primitive_cube_add(size=1.0, location=(0, 0, 0))
blob = bpy.context.active_object
blob.name = "Blob"
blob.shape_key_add(name="Basis")
smile = blob.shape_key_add(name="Smile")
frown = blob.shape_key_add(name="Frown")
for i, v in enumerate(smile.data):
    v.co.z += 0.3 * (i % 3)
for i, v in enumerate(frown.data):
    v.co.x -= 0.2 * (i % 2)
for frame, (s, f) in zip((1, 12, 30, 48), ((0.0, 1.0), (0.8, 0.25), (0.35, 0.0), (1.0, 0.6))):
    smile.value, frown.value = s, f
    smile.keyframe_insert("value", frame=frame)
    frown.keyframe_insert("value", frame=frame)
for fc in blob.data.shape_keys.animation_data.action.fcurves:
    for kp in fc.keyframe_points:
        kp.interpolation = "LINEAR"
blob.rotation_mode = "QUATERNION"
for frame, q in zip((1, 20, 40), ((1, 0, 0, 0), (0.8, 0.2, 0.4, 0.4), (0.6, -0.5, 0.3, 0.55))):
    blob.rotation_quaternion = q
    blob.rotation_quaternion.normalize()
    blob.keyframe_insert("rotation_quaternion", frame=frame)
keyframes(blob, "rotation_quaternion", None, None, "CONSTANT")

# Spinner: Bezier location, rotation and scale with free handles, its own action.
bpy.ops.mesh.primitive_cube_add(size=0.5, location=(2, 0, 0))
spinner = bpy.context.active_object
spinner.name = "Spinner"
spinner.rotation_mode = "QUATERNION"
for frame, loc, q, s in (
    (1, (2, 0, 0), (1, 0, 0, 0), (1, 1, 1)),
    (16, (2.5, 1.2, -0.4), (0.9, 0.1, 0.3, 0.3), (1.4, 0.8, 1.0)),
    (33, (1.0, 0.2, 0.9), (0.5, 0.5, -0.5, 0.5), (0.7, 1.3, 1.1)),
    (48, (2, -1, 0), (0.2, 0.9, 0.1, -0.35), (1, 1, 1)),
):
    spinner.location = loc
    spinner.rotation_quaternion = q
    spinner.rotation_quaternion.normalize()
    spinner.scale = s
    for path in ("location", "rotation_quaternion", "scale"):
        spinner.keyframe_insert(path, frame=frame)
for fc in spinner.animation_data.action.fcurves:
    for j, kp in enumerate(fc.keyframe_points):
        kp.interpolation = "BEZIER"
        kp.handle_left_type = kp.handle_right_type = "FREE"
        # Handles a third of the way in time (glTF can hold only those exactly), sloped.
        kp.handle_left = (kp.co.x - 3.0, kp.co.y - 0.1 * (j + 1) * (fc.array_index + 1))
        kp.handle_right = (kp.co.x + 3.0, kp.co.y + 0.05 * (j + 2))
    fc.update()
spinner.animation_data.action.name = "SpinAction"
blob.animation_data.action.name = "BlobAction"

bpy.ops.export_scene.gltf(
    filepath=os.path.join(out_dir, "blender_weights_separate.gltf"),
    export_format="GLTF_SEPARATE",
    export_animations=True,
    export_force_sampling=False,
    export_morph=True,
    export_apply=False,
    export_yup=True,
)
print("wrote", out_dir)
