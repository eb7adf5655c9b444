#!/usr/bin/env python3
"""Lists files in src/ over 600 lines and functions over 80 lines (issue 10's limits).

Usage: python3 tools/sizes.py [ROOT]   (exit status 1 if anything is over)
A function runs from its `fn` line to the closing brace at the same indentation.
"""
import pathlib
import re
import sys

root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else "src")
FN = re.compile(r"^(\s*)(pub(\([^)]*\))?\s+)?(const\s+)?(unsafe\s+)?fn\s+(\w+)")
over = []
for path in sorted(root.rglob("*.rs")):
    lines = path.read_text().splitlines()
    if len(lines) > 600:
        over.append(f"{path}: {len(lines)} lines")
    for i, line in enumerate(lines):
        m = FN.match(line)
        if not m or line.rstrip().endswith(";"):
            continue
        indent = m.group(1)
        for j in range(i, len(lines)):
            if lines[j] == indent + "}" or (j == i and line.rstrip().endswith("}")):
                break
        length = j - i + 1
        if length > 80:
            over.append(f"{path}:{i + 1}: fn {m.group(6)} is {length} lines")
print("\n".join(over) if over else f"{root}: no file over 600 lines, no function over 80 lines")
sys.exit(1 if over else 0)
