"""The add-on installed as a user installs it, in a throw-away user directory:

    python tools/blender/extension_check.py [--] [--extension PACKAGE.zip]      (the bpy module)
    blender -b --factory-startup --python-exit-code 1 --python tools/blender/extension_check.py

1. As a legacy add-on (Edit > Preferences > Add-ons > Install..., every version):
   `preferences.addon_install` of tools/blender/tangent_io.py, then `addon_enable`.
2. In Blender 4.2 and later, with --extension (tools/blender/build_extension.py builds it), as an
   extension (Get Extensions > Install from Disk...): `extensions.package_install_files` into
   the user repository, enabled on install, the legacy add-on disabled first.

Each time File > Export > Tangent project and File > Import > Tangent project run through
their menu operators: an object with a Bezier F-curve, a Linear one under a Cycles modifier
and one with an eased key is exported, the scene emptied, the file imported, and the F-curves
must evaluate as before at 40 frames (within 1e-5). Exits 1 on any failure.

The user directories (BLENDER_USER_RESOURCES and friends) point to a temporary directory set
before Blender starts when run as the bpy module; under the blender program, pass them in the
environment (`.ci/run` does) or the add-on lands in your own Blender's user directory.
"""

import os
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))

if "bpy" not in sys.modules:  # the bpy module: its user directories before it starts
    USER = tempfile.mkdtemp(prefix="tangent-blender-user-")
    for var in ("BLENDER_USER_RESOURCES", "BLENDER_USER_CONFIG", "BLENDER_USER_SCRIPTS", "BLENDER_USER_EXTENSIONS", "BLENDER_USER_DATAFILES"):
        os.environ.setdefault(var, os.path.join(USER, var.rsplit("_", 1)[1].lower()))

import bpy  # noqa: E402

sys.dont_write_bytecode = True


def _helpers():
    """tools/blender/tangent_io.py under another name (for script_args, id_fcurves...): the
    installed add-on must be the only module named tangent_io."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("tangent_io_check_helpers", os.path.join(HERE, "tangent_io.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


helpers = _helpers()

FAILURES = []


def fail(message):
    FAILURES.append(message)
    print("FAIL", message)


def clear_scene():
    """Objects and actions gone (not read_factory_settings: it would reset the add-ons too)."""
    for o in list(bpy.data.objects):
        bpy.data.objects.remove(o)
    for a in list(bpy.data.actions):
        bpy.data.actions.remove(a)


def build_scene():
    clear_scene()
    scene = bpy.context.scene
    scene.render.fps, scene.render.fps_base = 24, 1.0
    obj = bpy.data.objects.new("Probe", None)
    scene.collection.objects.link(obj)
    obj.keyframe_insert("location", index=0, frame=1)
    obj.location[0] = 2.0
    obj.keyframe_insert("location", index=0, frame=12)
    obj.location[1] = 1.0
    obj.keyframe_insert("location", index=1, frame=1)
    obj.location[1] = -1.0
    obj.keyframe_insert("location", index=1, frame=9)
    obj.rotation_euler[2] = 0.5
    obj.keyframe_insert("rotation_euler", index=2, frame=3)
    obj.rotation_euler[2] = 1.5
    obj.keyframe_insert("rotation_euler", index=2, frame=20)
    curves = {(fc.data_path, fc.array_index): fc for fc in helpers.id_fcurves(obj)[0]}
    y = curves[("location", 1)]
    for k in y.keyframe_points:
        k.interpolation = "LINEAR"
    y.modifiers.new("CYCLES")
    z = curves[("rotation_euler", 2)]
    z.keyframe_points[0].interpolation, z.keyframe_points[0].easing = "ELASTIC", "EASE_OUT"
    for fc in curves.values():
        fc.update()
    obj.select_set(True)
    return obj


def values(obj):
    frames = [-10 + i * 0.87 for i in range(40)]
    return {(fc.data_path, fc.array_index): [fc.evaluate(f) for f in frames] for fc in helpers.id_fcurves(obj)[0]}


def through_menus(how):
    """Export, clear, import through the operators; the values must come back."""
    if not hasattr(bpy.types, "EXPORT_ANIM_OT_tangent") and "tangent_ron" not in dir(bpy.ops.export_anim):
        fail(f"{how}: no File > Export > Tangent project operator after installing")
        return
    for menu in (bpy.types.TOPBAR_MT_file_export, bpy.types.TOPBAR_MT_file_import):
        funcs = getattr(menu.draw, "_draw_funcs", [])
        if not any(f.__module__.endswith("tangent_io") and f.__module__ != helpers.__name__ for f in funcs):
            fail(f"{how}: no Tangent entry in {menu.__name__}")
    obj = build_scene()
    before = values(obj)
    path = os.path.join(tempfile.mkdtemp(), "probe.ron")
    if bpy.ops.export_anim.tangent_ron(filepath=path, use_selection=True) != {"FINISHED"}:
        fail(f"{how}: export did not finish")
        return
    clear_scene()
    if bpy.ops.import_anim.tangent_ron(filepath=path) != {"FINISHED"}:
        fail(f"{how}: import did not finish")
        return
    obj = bpy.data.objects.get("Probe")
    after = values(obj) if obj else {}
    if sorted(after) != sorted(before):
        fail(f"{how}: F-curves {sorted(after)} after the round trip, {sorted(before)} before")
    worst = 0.0
    for key, vals in before.items():
        for a, b in zip(vals, after.get(key, [])):
            worst = max(worst, abs(a - b) / (1 + abs(a)))
    if worst > 1e-5:
        fail(f"{how}: values differ by {worst:.3g} after export and import")
    print(f"{how}: export and import through the menus' operators, {len(before)} F-curves within {worst:.2g}")


def main():
    argv = helpers.script_args()
    extension = argv[argv.index("--extension") + 1] if "--extension" in argv else None
    print(f"Blender {bpy.app.version_string}, user scripts in {bpy.utils.script_path_user()}")
    bpy.ops.preferences.addon_install(filepath=os.path.join(HERE, "tangent_io.py"), overwrite=True)
    bpy.ops.preferences.addon_enable(module="tangent_io")
    through_menus("legacy add-on (Add-ons > Install...)")
    bpy.ops.preferences.addon_disable(module="tangent_io")
    if "tangent_ron" in dir(bpy.ops.export_anim):
        fail("the legacy add-on's operators stay after disabling it")
    if extension:
        if bpy.app.version < (4, 2, 0):
            fail(f"--extension: Blender {bpy.app.version_string} has no extensions (4.2 and later)")
        else:
            result = bpy.ops.extensions.package_install_files(filepath=os.path.abspath(extension), repo="user_default", enable_on_install=True)
            if result != {"FINISHED"}:
                fail(f"installing {extension} as an extension: {result}")
            enabled = [a.module for a in bpy.context.preferences.addons if a.module.endswith("tangent_io")]
            if enabled != ["bl_ext.user_default.tangent_io"]:
                fail(f"after installing the extension the enabled add-ons named tangent_io are {enabled}")
            through_menus("extension (Get Extensions > Install from Disk...)")
    print(f"{len(FAILURES)} failures")
    helpers.script_exit(1 if FAILURES else 0)


if __name__ == "__main__":
    try:
        main()
    except SystemExit:
        raise
    except BaseException:  # noqa: BLE001 (any error is a failure, with its trace)
        import traceback

        traceback.print_exc()
        helpers.script_exit(1)
