#!/usr/bin/env python3
"""Find import cycles between the modules of a Rust source tree (default: src/app).

Every .rs file under the root is a module (`foo.rs`, or `foo/mod.rs` for the folder `foo`;
the root's own `mod.rs` is the root module). An edge A -> B means a path in A names B:

* `use` statements, with `super::`, `self::`, `crate::<root>::` and a bare child module
  (`pub use child::X;`), nested brace groups (`use super::{a::{B, C}, d};`), `as`, `self`
  and `*`, over as many lines as they take;
* the same qualified paths written inline in code (`ChangeKeys(super::key_jobs::KeyChange)`,
  `crate::app::simplify::Preview`): they tie modules as much as a `use` does.

A path resolves to the deepest module file it names: `use super::X` from src/app/a.rs is
src/app/mod.rs unless X is a sibling module, in which case it is that sibling's file.
Comments, string and char literals, `mod x;` declarations and `pub(in path)` visibilities
are not imports. Test code is left out: files named `tests.rs` or `*_tests.rs`, files
declared `#[cfg(test)] mod x;`, and any `#[cfg(test)]` item (`mod tests { ... }` up to its
closing brace). Edges of a file to itself are dropped.

Prints each strongly connected component of more than one file (Tarjan), with the names
every edge inside it imports and the lines they are on, then `N cycles`; exits 1 when N > 0.
A parent naming its own submodules counts (a mod.rs that lays out its panels, `pub use
child::X`), so a panel importing `super::Panel` from that mod.rs closes a cycle; such a
cycle also lists what is left of it without those parent-to-child edges, which is what
`--not-into-children` (and farm-studio's picture) counts.

    tools/check_cycles.py                 # src/app
    tools/check_cycles.py --root src      # any tree
    tools/check_cycles.py --use-only      # `use` statements only, no inline paths
    tools/check_cycles.py --not-into-children  # no edges from a module into its submodules
    tools/check_cycles.py --self-test
"""

import argparse
import bisect
import os
import re
import sys
import tempfile

IDENT = r"[A-Za-z_][A-Za-z0-9_]*"
CFG_TEST = re.compile(r"#\s*\[\s*cfg\s*\(\s*test\s*\)\s*\]")
ATTRIBUTE = re.compile(r"#\s*!?\s*\[")
VIS_IN = re.compile(r"\bpub\s*\(\s*in\s+[^)]*\)")
USE = re.compile(r"(?<![\w:$])use\b(?!\s*<)")
MOD_DECL = re.compile(r"(?<![\w:$])mod\s+(" + IDENT + r")\s*([;{])")
PATH = re.compile(r"(?<![\w:.$#])(" + IDENT + r"(?:\s*::\s*" + IDENT + r")+)")


# --- reading a file ---------------------------------------------------------------------

def blank(s):
    """The same length of text with everything but newlines made spaces."""
    return "".join("\n" if ch == "\n" else " " for ch in s)


def strip_comments_and_literals(text):
    """Comments, strings and char literals blanked; offsets and line numbers kept."""
    out = []
    i, n = 0, len(text)
    raw = re.compile(r"b?r(#*)\"")
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(blank(text[i:j]))
            i = j
        elif text.startswith("/*", i):
            depth, j = 1, i + 2
            while j < n and depth:
                if text.startswith("/*", j):
                    depth, j = depth + 1, j + 2
                elif text.startswith("*/", j):
                    depth, j = depth - 1, j + 2
                else:
                    j += 1
            out.append(blank(text[i:j]))
            i = j
        elif c in "br" and (i == 0 or not (text[i - 1].isalnum() or text[i - 1] == "_")) and raw.match(text, i):
            m = raw.match(text, i)
            end = text.find('"' + m.group(1), m.end())
            j = n if end < 0 else end + 1 + len(m.group(1))
            out.append(blank(text[i:j]))
            i = j
        elif c == '"':
            j = i + 1
            while j < n and text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            j = min(j + 1, n)
            out.append(blank(text[i:j]))
            i = j
        elif c == "'":
            if i + 1 < n and text[i + 1] == "\\":
                end = text.find("'", i + 3)
                j = n if end < 0 else end + 1
            elif i + 2 < n and text[i + 2] == "'":
                j = i + 3
            else:  # a lifetime or a label
                out.append(c)
                i += 1
                continue
            out.append(blank(text[i:j]))
            i = j
        else:
            out.append(c)
            i += 1
    return "".join(out)


def item_end(code, i):
    """End of the item starting at i: its `;` or the brace that closes its first `{`."""
    depth, n = 0, len(code)
    while i < n:
        c = code[i]
        if c in "([":
            depth += 1
        elif c in ")]":
            depth -= 1
        elif c == ";" and depth <= 0:
            return i + 1
        elif c == "{" and depth <= 0:
            return matching_brace(code, i)
        i += 1
    return n


def matching_brace(code, i):
    """Offset just after the `}` closing the `{` at i."""
    depth = 0
    for j in range(i, len(code)):
        if code[j] == "{":
            depth += 1
        elif code[j] == "}":
            depth -= 1
            if depth == 0:
                return j + 1
    return len(code)


def skip_attributes(code, i):
    while True:
        while i < len(code) and code[i].isspace():
            i += 1
        m = ATTRIBUTE.match(code, i)
        if not m:
            return i
        depth, j = 1, m.end()
        while j < len(code) and depth:
            depth += {"[": 1, "]": -1}.get(code[j], 0)
            j += 1
        i = j


def remove_test_items(code):
    """Blank every `#[cfg(test)]` item; returns the code and the test modules declared `mod x;`."""
    test_mods = set()
    while True:
        m = CFG_TEST.search(code)
        if not m:
            return code, test_mods
        start = skip_attributes(code, m.end())
        end = item_end(code, start)
        decl = MOD_DECL.search(code, start, end)
        if decl and decl.group(2) == ";" and re.fullmatch(r"(pub\s*(\([^)]*\))?)?\s*", code[start:decl.start()]):
            test_mods.add(decl.group(1))
        code = code[:m.start()] + blank(code[m.start():end]) + code[end:]


def split_use_tree(tree):
    """`a::{b, c::{D, E as F}, self, *}` -> [['a','b'], ['a','c','D'], ['a','c','E'], ['a'], ['a','*']]."""
    tree = re.sub(r"\s+", "", tree)
    out = []

    def walk(prefix, s):
        for part in split_top(s):
            if not part:
                continue
            if "{" in part:
                head, _, rest = part.partition("{")
                inner = rest[:rest.rfind("}")]
                walk(prefix + [x for x in head.split("::") if x], inner)
            else:
                segs = [x for x in part.split("::") if x]
                if segs and segs[-1] == "self":
                    segs = segs[:-1]
                out.append(prefix + segs)

    walk([], tree)
    return out


def split_top(s):
    parts, depth, cur = [], 0, []
    for ch in s:
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
        if ch == "," and depth == 0:
            parts.append("".join(cur))
            cur = []
        else:
            cur.append(ch)
    parts.append("".join(cur))
    return parts


def strip_alias(tree):
    """`X as Y` -> `X` (spaces matter before whitespace is dropped)."""
    return re.sub(r"\s+as\s+" + IDENT, "", tree)


class Source:
    """One file's code with tests removed: its use paths and inline paths, with lines."""

    def __init__(self, text, use_only=False):
        code = strip_comments_and_literals(text)
        code = VIS_IN.sub(lambda m: blank(m.group(0)), code)
        code, self.test_mods = remove_test_items(code)
        self.code = code
        self.line_starts = [0] + [i + 1 for i, ch in enumerate(code) if ch == "\n"]
        # inline modules: (start, end, name)
        self.inline = []
        for m in MOD_DECL.finditer(code):
            if m.group(2) == "{":
                self.inline.append((m.start(), matching_brace(code, m.end() - 1), m.group(1)))
        self.paths = []  # (offset, segments): a `use` path's offset is its statement's
        masked = list(code)
        for m in USE.finditer(code):
            end = code.find(";", m.end())
            if end < 0:
                continue
            tree = strip_alias(code[m.end():end]).strip()
            for segs in split_use_tree(tree):
                if segs and segs[0] != "":
                    self.paths.append((m.start(), segs))
            masked[m.start():end + 1] = blank(code[m.start():end + 1])
        if not use_only:
            rest = "".join(masked)
            for m in PATH.finditer(rest):
                segs = [s.strip() for s in m.group(1).split("::")]
                self.paths.append((m.start(), segs))

    def line(self, offset):
        return bisect.bisect_right(self.line_starts, offset)

    def inline_path(self, offset):
        return [name for (s, e, name) in sorted(self.inline) if s <= offset < e]


# --- the module tree --------------------------------------------------------------------

def is_test_file(path):
    name = os.path.basename(path)
    return name == "tests.rs" or name.endswith("_tests.rs")


def module_path(root, path):
    rel = os.path.relpath(path, root).split(os.sep)
    if rel[-1] in ("mod.rs",) or (len(rel) == 1 and rel[0] in ("lib.rs", "main.rs")):
        return tuple(rel[:-1])
    return tuple(rel[:-1] + [rel[-1][:-3]])


def crate_prefix(root):
    """The module path of root inside its crate: src/app -> ('app',); None if no crate root found."""
    root = os.path.abspath(root)
    parts = []
    d = root
    while True:
        if os.path.exists(os.path.join(d, "lib.rs")) or os.path.exists(os.path.join(d, "main.rs")):
            return tuple(reversed(parts))
        parent = os.path.dirname(d)
        if parent == d:
            return None
        parts.append(os.path.basename(d))
        d = parent


class Tree:
    def __init__(self, root, use_only=False, prefix=None):
        self.root = root
        self.prefix = crate_prefix(root) if prefix is None else prefix
        self.files = {}    # module path -> file
        self.sources = {}  # file -> Source
        for d, dirs, names in os.walk(root):
            dirs.sort()
            for name in sorted(names):
                if name == "main.rs" and d == root and os.path.exists(os.path.join(d, "lib.rs")):
                    continue  # the binary is a crate of its own
                if name.endswith(".rs"):
                    path = os.path.join(d, name)
                    self.files[module_path(root, path)] = path
        tests = set()
        for mod, path in self.files.items():
            with open(path, encoding="utf-8", errors="replace") as f:
                src = Source(f.read(), use_only)
            self.sources[path] = src
            for t in src.test_mods:
                tests.add(mod + (t,))
        self.test_files = {p for m, p in self.files.items() if is_test_file(p) or m in tests
                           or any(m[:len(t)] == t for t in tests)}
        self.module_of = {p: m for m, p in self.files.items()}
        self.inline = {}  # inline module path -> file
        for mod, path in self.files.items():
            for (s, e, name) in self.sources[path].inline:
                self.inline[mod + tuple(self.sources[path].inline_path(s)) + (name,)] = path

    def module_file(self, mod):
        return self.files.get(mod) or self.inline.get(mod)

    def resolve(self, here, segs):
        """(file, name) for a path written in module `here`, or None if it leaves the tree."""
        head = segs[0]
        if head == "crate":
            if self.prefix is None or tuple(segs[1:1 + len(self.prefix)]) != self.prefix:
                return None
            base, rest = [], list(segs[1 + len(self.prefix):])
        elif head == "super":
            base, rest = list(here), list(segs)
            while rest and rest[0] == "super":
                if not base:
                    return None
                base.pop()
                rest.pop(0)
        elif head == "self":
            base, rest = list(here), list(segs[1:])
        elif self.module_file(tuple(here) + (head,)):
            base, rest = list(here), list(segs)
        else:
            return None
        while rest and self.module_file(tuple(base + [rest[0]])):
            base.append(rest.pop(0))
        target = self.module_file(tuple(base))
        if target is None:
            return None
        name = rest[0] if rest else (base[-1] if base else "self")
        return target, name

    def edges(self):
        """{(from, to): {name: [lines]}} without test files and self-edges."""
        out = {}
        for mod, path in self.files.items():
            if path in self.test_files:
                continue
            src = self.sources[path]
            for offset, segs in src.paths:
                here = list(mod) + src.inline_path(offset)
                hit = self.resolve(here, segs)
                if hit is None or hit[0] == path or hit[0] in self.test_files:
                    continue
                lines = out.setdefault((path, hit[0]), {}).setdefault(hit[1], [])
                line = src.line(offset)
                if line not in lines:
                    lines.append(line)
        return out


def strongly_connected(nodes, edges):
    """Tarjan's algorithm; components of more than one node, each sorted."""
    succ = {n: sorted({b for (a, b) in edges if a == n}) for n in nodes}
    index, low, stack, on, comps = {}, {}, [], set(), []
    counter = [0]
    sys.setrecursionlimit(max(10000, 4 * len(nodes)))

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in succ[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                comps.append(sorted(comp))

    for n in sorted(nodes):
        if n not in index:
            visit(n)
    return sorted(comps)


def into_child(tree, a, b):
    """Whether b is a submodule of a (a mod.rs naming its own panels, `pub use child::X`)."""
    ma, mb = tree.module_of[a], tree.module_of[b]
    return len(mb) > len(ma) and mb[:len(ma)] == ma


def report(root, use_only=False, not_into_children=False, out=sys.stdout):
    tree = Tree(root, use_only)
    edges = tree.edges()
    if not_into_children:
        edges = {e: v for e, v in edges.items() if not into_child(tree, *e)}
    nodes = {p for p in tree.files.values() if p not in tree.test_files}
    cycles = strongly_connected(nodes, edges)

    def show(p):
        rel = os.path.relpath(p)
        return p if rel.startswith("..") else rel

    for k, comp in enumerate(cycles, 1):
        print(f"cycle {k}: {len(comp)} files: {', '.join(show(p) for p in comp)}", file=out)
        members = set(comp)
        inside = sorted(e for e in edges if e[0] in members and e[1] in members)
        for (a, b) in inside:
            names = ", ".join(f"{name} ({', '.join(map(str, lines))})"
                              for name, lines in sorted(edges[(a, b)].items()))
            print(f"  {show(a)} -> {show(b)}: {names}", file=out)
        down = [e for e in inside if into_child(tree, *e)]
        if down:
            rest = {e: edges[e] for e in inside if e not in down}
            inner = strongly_connected(members, rest)
            print(f"  without its {len(down)} edges from a module into its own submodules "
                  f"(--not-into-children), {len(inner)} cycles are left in it:", file=out)
            for sub in inner:
                print(f"    {len(sub)} files: {', '.join(show(p) for p in sub)}", file=out)
    print(f"{len(cycles)} cycles", file=out)
    return cycles, edges


# --- self-test --------------------------------------------------------------------------

SELF_TEST = {
    "lib.rs": "pub mod app;\n",
    "app/mod.rs": """
        mod a;
        mod b;
        mod c;
        mod d;
        pub mod g;
        #[cfg(test)]
        mod tests;
        #[cfg(test)]
        mod late;
        pub struct Panel;
    """,
    # a -> b and a -> mod.rs, over several lines with nested groups
    "app/a.rs": """
        use super::{
            b::{B, helper as h},
            Panel,
        };
        pub struct A;
    """,
    # b -> c through crate::app::
    "app/b.rs": "use crate::app::c::C;\npub struct B;\npub fn helper() {}\n",
    # c -> a through an inline path; its tests block and comments name d, which must not count
    "app/c.rs": """
        pub struct C;
        pub fn f(_: super::a::A) {}  // super::d::D in a comment
        pub(in crate::app) fn g() -> &'static str { "super::d::D in a string" }
        #[cfg(test)]
        mod tests {
            use super::super::d::D;
            fn t() { let _ = crate::app::d::D; let _ = '{'; }
        }
        mod inner { pub fn k() -> super::C { super::C } }
    """,
    # d -> c: no cycle, since c's only path to d is in its tests
    "app/d.rs": "use super::c::C;\npub struct D(C);\n",
    # test files: both would close a cycle with d if they counted
    "app/tests.rs": "use super::d::D;\n",
    "app/late.rs": "use super::d::D;\n",
    # a child re-exported by its folder's mod.rs, importing the grandparent: no cycle
    "app/g/mod.rs": "mod inner;\npub use inner::Thing;\n",
    "app/g/inner.rs": "use super::super::Panel;\npub struct Thing;\n",
}


CHILD_CYCLE = {
    "lib.rs": "pub mod app;\n",
    "app/mod.rs": "mod p;\npub use p::P;\npub struct Panel;\n",
    "app/p.rs": "use super::Panel;\npub struct P;\n",
}


def write_tree(base, files):
    import textwrap
    for rel, text in files.items():
        path = os.path.join(base, "src", rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as f:
            f.write(textwrap.dedent(text))
    return os.path.join(base, "src", "app")


def self_test():
    import io
    with tempfile.TemporaryDirectory() as tmp:
        root = write_tree(os.path.join(tmp, "one"), SELF_TEST)
        buf = io.StringIO()
        cycles, edges = report(root, out=buf)
        names = [sorted(os.path.relpath(p, root) for p in c) for c in cycles]
        assert names == [["a.rs", "b.rs", "c.rs"]], (names, buf.getvalue())
        j = lambda *p: os.path.join(root, *p)
        assert set(edges[(j("a.rs"), j("b.rs"))]) == {"B", "helper"}, edges
        assert set(edges[(j("a.rs"), j("mod.rs"))]) == {"Panel"}, edges
        assert set(edges[(j("c.rs"), j("a.rs"))]) == {"A"}, edges
        assert (j("c.rs"), j("d.rs")) not in edges, "a #[cfg(test)] block's import counted"
        assert (j("c.rs"), j("mod.rs")) not in edges, "pub(in crate::app) counted as an import"
        assert not any(j("tests.rs") in e or j("late.rs") in e for e in edges), "a test file counted"
        assert (j("mod.rs"), j("g", "mod.rs")) not in edges, "a `mod g;` declaration counted as an import"
        assert (j("g", "mod.rs"), j("g", "inner.rs")) in edges, edges
        assert (j("g", "inner.rs"), j("mod.rs")) in edges, edges
        assert buf.getvalue().rstrip().endswith("1 cycles"), buf.getvalue()
        cycles, _ = report(root, not_into_children=True, out=io.StringIO())
        assert [len(c) for c in cycles] == [3], cycles
        # `use` statements alone: c -> a is an inline path, so no cycle
        cycles, _ = report(root, use_only=True, out=io.StringIO())
        assert cycles == [], cycles
        # a mod.rs re-exporting a child that imports from it is a cycle, unless asked otherwise
        root = write_tree(os.path.join(tmp, "two"), CHILD_CYCLE)
        cycles, _ = report(root, out=io.StringIO())
        assert [len(c) for c in cycles] == [2], cycles
        cycles, _ = report(root, not_into_children=True, out=io.StringIO())
        assert cycles == [], cycles
    print("self-test passed")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("root", nargs="?", help="the tree to read (default src/app)")
    ap.add_argument("--root", dest="root_opt", help="the tree to read (same as ROOT)")
    ap.add_argument("--use-only", action="store_true", help="count `use` statements only, not inline paths")
    ap.add_argument("--not-into-children", action="store_true",
                    help="leave out edges from a module into its own submodules (farm-studio's view)")
    ap.add_argument("--self-test", action="store_true", help="check this script on a made-up tree")
    args = ap.parse_args()
    if args.self_test:
        self_test()
        return 0
    root = args.root_opt or args.root or "src/app"
    if not os.path.isdir(root):
        print(f"{root}: not a directory", file=sys.stderr)
        return 2
    cycles, _ = report(root, args.use_only, args.not_into_children)
    return 1 if cycles else 0


if __name__ == "__main__":
    sys.exit(main())
