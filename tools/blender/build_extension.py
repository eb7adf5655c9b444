"""Builds the Tangent add-on as a Blender extension package (Blender 4.2 and later):

    python3 tools/blender/build_extension.py [-o OUT.zip]

The zip holds `blender_manifest.toml` and `__init__.py`, a copy of tools/blender/tangent_io.py
(the one file every Blender version runs). The manifest's name, version and tagline come from
the add-on's `bl_info`, so the two cannot drift apart. Install it with Edit > Preferences >
Get Extensions > Install from Disk..., or `blender --command extension install-file -r
user_default OUT.zip`. Blender 3.4 to 4.1 have no extensions: there the same file installs as a
legacy add-on (Edit > Preferences > Add-ons > Install...), which 4.2 to 5.0 still accept too
(docs/blender.md).

Plain Python (no Blender needed); the archive is byte-for-byte reproducible (fixed dates and
order). `tools/blender/extension_check.py` installs it into a `bpy` of 4.2 or later and exports
through it; `.ci/run` does both.
"""

import argparse
import ast
import os
import sys
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
SOURCE = os.path.join(HERE, "tangent_io.py")
EXTENSION_ID = "tangent_io"
# The add-on reads and writes the files the user picks in the file browser.
PERMISSIONS = {"files": "Read and write the Tangent projects (.ron) you choose"}


def bl_info(source_text):
    """The add-on's `bl_info` dictionary, read without running the module."""
    for node in ast.parse(source_text).body:
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "bl_info" for t in node.targets):
            return ast.literal_eval(node.value)
    raise SystemExit(f"{SOURCE}: no bl_info")


def toml_string(s):
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def manifest(info):
    version = ".".join(str(x) for x in info["version"])
    # An extension's tagline is at most 64 characters and does not end in punctuation.
    tagline = info["description"].rstrip(".")[:64]
    lines = [
        "# Built by tools/blender/build_extension.py from tools/blender/tangent_io.py's bl_info.",
        'schema_version = "1.0.0"',
        f"id = {toml_string(EXTENSION_ID)}",
        f"version = {toml_string(version)}",
        f"name = {toml_string(info['name'])}",
        f"tagline = {toml_string(tagline)}",
        f"maintainer = {toml_string(info['author'])}",
        'type = "add-on"',
        'tags = ["Animation", "Import-Export"]',
        # Extensions start at 4.2; older Blender installs the same file as a legacy add-on.
        'blender_version_min = "4.2.0"',
        # The project's licence is MIT OR Apache-2.0; the package is offered under MIT.
        'license = ["SPDX:MIT"]',
        "",
        "[permissions]",
    ]
    lines += [f"{key} = {toml_string(why)}" for key, why in PERMISSIONS.items()]
    return "\n".join(lines) + "\n"


def build(out):
    with open(SOURCE, encoding="utf-8") as f:
        source = f.read()
    info = bl_info(source)
    files = {"blender_manifest.toml": manifest(info), "__init__.py": source}
    os.makedirs(os.path.dirname(os.path.abspath(out)), exist_ok=True)
    with zipfile.ZipFile(out, "w", compression=zipfile.ZIP_DEFLATED) as z:
        for name in sorted(files):
            entry = zipfile.ZipInfo(name, date_time=(2024, 1, 1, 0, 0, 0))
            entry.external_attr = 0o644 << 16
            entry.compress_type = zipfile.ZIP_DEFLATED
            z.writestr(entry, files[name].encode("utf-8"))
    return info


def main():
    p = argparse.ArgumentParser(prog="build_extension.py", description=__doc__.split("\n\n")[0])
    p.add_argument("-o", "--output", help="the zip to write (default target/blender/tangent_io-VERSION.zip)")
    args = p.parse_args()
    with open(SOURCE, encoding="utf-8") as f:
        info = bl_info(f.read())
    version = ".".join(str(x) for x in info["version"])
    out = args.output or os.path.join(REPO, "target", "blender", f"{EXTENSION_ID}-{version}.zip")
    build(out)
    print(f"{out}: extension {EXTENSION_ID} {version} (Blender 4.2 and later)")


if __name__ == "__main__":
    sys.exit(main())
