"""Tangent project (.ron) import and export for Blender (3.4 and later; checked with 3.4.1,
4.2.23, 4.5.15 and 5.0.1).

Install it as an add-on (Edit > Preferences > Add-ons > Install..., this file), in Blender 4.2
and later also as an extension (tools/blender/build_extension.py packs this file), or import
it as a module (`tools/blender/tangent_roundtrip.py` does). F-curves are read and made in the
channel bag of the object's action slot where Blender has slotted actions (4.4 and later),
in the action's `fcurves` before. Menus:

- File > Export > Tangent project (.ron): the actions of the selected objects, one Scalar
  Bezier track per F-curve named `OBJECT:DATA_PATH[INDEX]`, with keys, handles and handle
  types, per-key interpolation and easing parameters, auto smoothing, and the extrapolation
  (or a Cycles modifier) as the track's pre/post infinity.
- File > Import > Tangent project (.ron): the tracks of a project as F-curves: tracks named
  `OBJECT:DATA_PATH[INDEX]` on that object (an Empty is made when it is missing), other
  Step, Linear and Bezier tracks on an Empty named after the track (Vec3 -> location, Euler
  -> rotation_euler in the track's order, Quat -> rotation_quaternion, Scalar/Vec2/Vec4 ->
  the custom property ["value"]). Tcb, Cubic, Slerp, Nlerp and Squad tracks are skipped with
  a message: convert or bake them in Tangent first.

Times: Tangent's are seconds, Blender's frames; frame = seconds x the scene's frame rate
(render.fps / render.fps_base), which is also what `fps` holds on export. Elastic periods
are frames in Blender and seconds in Tangent. The format is docs/format.md; what this add-on
maps, and what it cannot, is docs/blender.md.

The RON reader here reads what Tangent writes (structs with or without names, lists, tuples,
maps, strings, numbers, identifiers, Some(...)/None, comments); it needs no Blender, so it
can be used from plain Python too (`read_ron`, `parse_project`).
"""

bl_info = {
    "name": "Tangent project (.ron)",
    "author": "Tangent",
    "version": (1, 0, 0),
    "blender": (3, 4, 0),
    "location": "File > Import-Export > Tangent project (.ron)",
    "description": "F-curves to and from Tangent keyframe projects (RON)",
    "category": "Import-Export",
}

import math
import re

try:
    import bpy
    from bpy.props import BoolProperty, StringProperty
    from bpy_extras.io_utils import ExportHelper, ImportHelper
except ImportError:  # the RON reader and writer work without Blender
    bpy = None

FORMAT_VERSION = 4
# Tangent's defaults for a key's easing parameters (Blender's for a new key; the period is
# Blender's 4.1 frames at 24 fps, in seconds).
DEFAULT_BACK = 1.70158
DEFAULT_AMPLITUDE = 0.8
DEFAULT_PERIOD_SECONDS = 4.1 / 24.0

HANDLE_TO_TANGENT = {"FREE": "Free", "ALIGNED": "Aligned", "VECTOR": "Vector", "AUTO": "Auto", "AUTO_CLAMPED": "AutoClamped"}
INTERPOLATION_TO_TANGENT = {
    "BEZIER": "Bezier", "CONSTANT": "Constant", "LINEAR": "Linear", "BACK": "Back", "BOUNCE": "Bounce",
    "CIRC": "Circ", "CUBIC": "Cubic", "ELASTIC": "Elastic", "EXPO": "Expo", "QUAD": "Quad",
    "QUART": "Quart", "QUINT": "Quint", "SINE": "Sine",
}
EASING_TO_TANGENT = {"AUTO": "Auto", "EASE_IN": "In", "EASE_OUT": "Out", "EASE_IN_OUT": "InOut"}
SMOOTHING_TO_TANGENT = {"NONE": "None", "CONT_ACCEL": "ContinuousAcceleration"}
EXTRAPOLATION_TO_TANGENT = {"CONSTANT": "Constant", "LINEAR": "Linear"}
CYCLE_MODE_TO_TANGENT = {"REPEAT": "Cycle", "REPEAT_OFFSET": "CycleOffset"}


def _inverse(mapping):
    return {v: k for k, v in mapping.items()}


HANDLE_TO_BLENDER = _inverse(HANDLE_TO_TANGENT)
INTERPOLATION_TO_BLENDER = _inverse(INTERPOLATION_TO_TANGENT)
EASING_TO_BLENDER = _inverse(EASING_TO_TANGENT)
SMOOTHING_TO_BLENDER = _inverse(SMOOTHING_TO_TANGENT)
CYCLE_MODE_TO_BLENDER = _inverse(CYCLE_MODE_TO_TANGENT)

KIND_DIM = {"Scalar": 1, "Vec2": 2, "Vec3": 3, "Vec4": 4, "Quat": 4, "Euler": 3}
TRACK_INTERPOLATIONS = ("Step", "Linear", "Cubic", "Tcb", "Slerp", "Nlerp", "Squad", "Bezier")
INFINITIES = ("Constant", "Linear", "Cycle", "CycleOffset", "PingPong")
EULER_ORDERS = ("XYZ", "XZY", "YXZ", "YZX", "ZXY", "ZYX")


# --------------------------------------------------------------------------------------------
# RON: a reader for what Tangent writes, and the writer's pieces
# --------------------------------------------------------------------------------------------


class RonError(Exception):
    """A syntax or content error at a line and column (1-based) of the text."""

    def __init__(self, message, line=None, column=None, origin=None):
        self.message, self.line, self.column, self.origin = message, line, column, origin
        super().__init__(str(self))

    def __str__(self):
        place = self.origin or "<ron>"
        if self.line is not None:
            place += f":{self.line}:{self.column}"
        return f"{place}: {self.message}"


class Ident(str):
    """A bare identifier: an enum variant such as `Bezier`, or a unit struct."""


class Struct(dict):
    """`(field: value, ...)` or `Name(field: value, ...)`: fields in order, with positions."""

    def __init__(self, name, line, column):
        super().__init__()
        self.name, self.line, self.column, self.positions = name, line, column, {}


class Tuple(list):
    """`(a, b, ...)` or `Name(a, b, ...)`."""

    def __init__(self, name, line, column, items=()):
        super().__init__(items)
        self.name, self.line, self.column = name, line, column


class List(list):
    """`[a, b, ...]`, with its position."""

    def __init__(self, line, column, items=()):
        super().__init__(items)
        self.line, self.column = line, column


class RonMap(dict):
    """`{key: value, ...}`."""

    def __init__(self, line, column):
        super().__init__()
        self.line, self.column = line, column


_PUNCT = set("()[]{},:")
_IDENT_START = re.compile(r"[A-Za-z_]")
_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_NUMBER = re.compile(r"[+-]?(?:0x[0-9A-Fa-f_]+|0o[0-7_]+|0b[01_]+|(?:[0-9][0-9_]*)?(?:\.[0-9_]*)?(?:[eE][+-]?[0-9_]+)?)")
_ESCAPES = {'"': '"', "\\": "\\", "/": "/", "n": "\n", "t": "\t", "r": "\r", "0": "\0", "'": "'", "b": "\b", "f": "\f"}


class _Lexer:
    """Tokens of RON text: (kind, value, line, column); kind is a punctuation character,
    'ident', 'string', 'number', 'char' or 'eof'."""

    def __init__(self, text, origin):
        self.text, self.origin, self.pos, self.line, self.line_start = text, origin, 0, 1, 0

    def error(self, message, pos=None):
        pos = self.pos if pos is None else pos
        line = self.text.count("\n", 0, pos) + 1
        column = pos - (self.text.rfind("\n", 0, pos) + 1) + 1
        return RonError(message, line, column, self.origin)

    def where(self, pos):
        line = self.text.count("\n", 0, pos) + 1
        return line, pos - (self.text.rfind("\n", 0, pos) + 1) + 1

    def skip_blank(self):
        text, n = self.text, len(self.text)
        while self.pos < n:
            c = text[self.pos]
            if c in " \t\r\n\x0b\x0c\ufeff":
                self.pos += 1
            elif text.startswith("//", self.pos):
                end = text.find("\n", self.pos)
                self.pos = n if end < 0 else end + 1
            elif text.startswith("/*", self.pos):
                self.skip_block_comment()
            elif text.startswith("#!", self.pos) or (c == "#" and text.startswith("#[", self.pos)):
                end = text.find("]", self.pos)  # an attribute such as #![enable(implicit_some)]
                if end < 0:
                    raise self.error("unterminated attribute `#![...]`")
                self.pos = end + 1
            else:
                return

    def skip_block_comment(self):
        start, depth, self.pos = self.pos, 1, self.pos + 2
        while depth:
            nxt_open, nxt_close = self.text.find("/*", self.pos), self.text.find("*/", self.pos)
            if nxt_close < 0:
                raise self.error("unterminated block comment `/* ... */`", start)
            if 0 <= nxt_open < nxt_close:
                depth, self.pos = depth + 1, nxt_open + 2
            else:
                depth, self.pos = depth - 1, nxt_close + 2

    def next(self):
        self.skip_blank()
        start = self.pos
        line, column = self.where(start)
        if start >= len(self.text):
            return ("eof", None, line, column)
        c = self.text[start]
        if c in _PUNCT:
            self.pos += 1
            return (c, c, line, column)
        if c == '"':
            return ("string", self.read_string(), line, column)
        if c == "r" and re.match(r'r#*"', self.text[start:start + 64]):
            return ("string", self.read_raw_string(), line, column)
        if c == "'":
            return ("char", self.read_char(), line, column)
        if _IDENT_START.match(c):
            m = _IDENT.match(self.text, start)
            self.pos = m.end()
            word = m.group(0)
            if word in ("inf", "NaN"):
                return ("number", float(word.lower()), line, column)
            return ("ident", word, line, column)
        if c in "+-.0123456789":
            return ("number", self.read_number(), line, column)
        raise self.error(f"unexpected character {c!r}")

    def read_number(self):
        start = self.pos
        for special, value in (("inf", math.inf), ("NaN", math.nan)):
            for sign in ("+", "-"):
                if self.text.startswith(sign + special, start):
                    self.pos = start + len(special) + 1
                    return -value if sign == "-" else value
        m = _NUMBER.match(self.text, start)
        word = m.group(0) if m else ""
        self.pos = start + len(word)
        clean = word.replace("_", "")
        try:
            body = clean.lstrip("+-")
            if body[:2] in ("0x", "0o", "0b"):
                value = int(body, {"0x": 16, "0o": 8, "0b": 2}[body[:2]])
                return -value if clean.startswith("-") else value
            if re.fullmatch(r"[+-]?[0-9]+", clean):
                return int(clean)
            return float(clean)
        except (ValueError, KeyError):
            raise self.error(f"malformed number `{word or self.text[start]}`", start) from None

    def read_escape(self, start):
        text = self.text
        c = text[self.pos] if self.pos < len(text) else ""
        if c in _ESCAPES:
            self.pos += 1
            return _ESCAPES[c]
        if c == "u" and text.startswith("{", self.pos + 1):
            end = text.find("}", self.pos)
            digits = text[self.pos + 2:end] if end > 0 else ""
            if not re.fullmatch(r"[0-9A-Fa-f]{1,6}", digits):
                raise self.error("malformed escape `\\u{...}`", self.pos - 1)
            self.pos = end + 1
            return chr(int(digits, 16))
        if c == "u" and re.fullmatch(r"[0-9A-Fa-f]{4}", text[self.pos + 1:self.pos + 5]):
            self.pos += 5
            return chr(int(text[self.pos - 4:self.pos], 16))
        if c == "x" and re.fullmatch(r"[0-9A-Fa-f]{2}", text[self.pos + 1:self.pos + 3]):
            self.pos += 3
            return chr(int(text[self.pos - 2:self.pos], 16))
        raise self.error(f"unknown escape `\\{c}` in a string", self.pos - 1)

    def read_string(self):
        start, out, self.pos = self.pos, [], self.pos + 1
        text = self.text
        while True:
            if self.pos >= len(text):
                raise self.error("unterminated string", start)
            c = text[self.pos]
            self.pos += 1
            if c == '"':
                return "".join(out)
            if c == "\\":
                out.append(self.read_escape(start))
            else:
                out.append(c)

    def read_raw_string(self):
        start = self.pos
        hashes = len(re.match(r"r(#*)", self.text[start:]).group(1))
        close = '"' + "#" * hashes
        self.pos = start + 2 + hashes
        end = self.text.find(close, self.pos)
        if end < 0:
            raise self.error("unterminated raw string", start)
        self.pos = end + len(close)
        return self.text[start + 2 + hashes:end]

    def read_char(self):
        start, self.pos = self.pos, self.pos + 1
        if self.pos >= len(self.text):
            raise self.error("unterminated character literal", start)
        c = self.text[self.pos]
        self.pos += 1
        if c == "\\":
            c = self.read_escape(start)
        if not self.text.startswith("'", self.pos):
            raise self.error("unterminated character literal", start)
        self.pos += 1
        return c


class _Parser:
    def __init__(self, text, origin):
        self.lexer = _Lexer(text, origin)
        self.origin = origin
        self.token = self.lexer.next()

    def error(self, message, token=None):
        token = token or self.token
        return RonError(message, token[2], token[3], self.origin)

    def advance(self):
        token, self.token = self.token, self.lexer.next()
        return token

    def expect(self, kind, what):
        if self.token[0] != kind:
            raise self.error(f"expected {what}, found {self.describe()}")
        return self.advance()

    def describe(self, token=None):
        kind, value = (token or self.token)[:2]
        if kind == "eof":
            return "the end of the file"
        if kind in ("ident", "number"):
            return f"`{value}`"
        if kind == "string":
            return f'the string "{value}"'
        return f"`{value}`"

    def document(self):
        value = self.value()
        if self.token[0] != "eof":
            raise self.error(f"expected the end of the file after the value, found {self.describe()}")
        return value

    def value(self):
        kind, value, line, column = self.token
        if kind in ("number", "string", "char"):
            self.advance()
            return value
        if kind == "[":
            return self.sequence()
        if kind == "{":
            return self.map()
        if kind == "(":
            return self.parenthesised(None, line, column)
        if kind == "ident":
            self.advance()
            if value in ("true", "false"):
                return value == "true"
            if value == "None" and self.token[0] != "(":
                return None
            if self.token[0] == "(":
                if value == "Some":
                    self.advance()
                    inner = self.value()
                    self.accept_comma()
                    self.expect(")", "`)` closing `Some(`")
                    return inner
                return self.parenthesised(value, line, column)
            return Ident(value)
        raise self.error(f"expected a value, found {self.describe()}")

    def accept_comma(self):
        if self.token[0] == ",":
            self.advance()
            return True
        return False

    def sequence(self):
        _, _, line, column = self.advance()
        items = List(line, column)
        while self.token[0] != "]":
            items.append(self.value())
            if not self.accept_comma() and self.token[0] != "]":
                raise self.error(f"expected `,` or `]` in the list opened at line {line}, found {self.describe()}")
        self.advance()
        return items

    def map(self):
        _, _, line, column = self.advance()
        out = RonMap(line, column)
        while self.token[0] != "}":
            key = self.value()
            self.expect(":", "`:` after a map key")
            try:
                out[key] = self.value()
            except TypeError:
                raise self.error("a map key must be a string, number or identifier") from None
            if not self.accept_comma() and self.token[0] != "}":
                raise self.error(f"expected `,` or `}}` in the map opened at line {line}, found {self.describe()}")
        self.advance()
        return out

    def parenthesised(self, name, line, column):
        """`(` has not been consumed: a struct if the first item is `field:`, else a tuple."""
        self.expect("(", "`(`")
        is_struct = self.token[0] == "ident" and self.peek_is_colon()
        out = Struct(name, line, column) if is_struct else Tuple(name, line, column)
        while self.token[0] != ")":
            if is_struct:
                field = self.expect("ident", "a field name")
                self.expect(":", f"`:` after the field name `{field[1]}`")
                if field[1] in out:
                    raise self.error(f"field `{field[1]}` appears twice", field)
                out.positions[field[1]] = (field[2], field[3])
                out[field[1]] = self.value()
            else:
                out.append(self.value())
            if not self.accept_comma() and self.token[0] != ")":
                opened = f"`{name}(`" if name else "`(`"
                raise self.error(f"expected `,` or `)` in the {opened} opened at line {line}, found {self.describe()}")
        self.advance()
        return out

    def peek_is_colon(self):
        lexer = self.lexer
        saved = lexer.pos
        token = lexer.next()
        lexer.pos = saved
        return token[0] == ":"


def read_ron(text, origin="<ron>"):
    """The value of RON `text`: numbers (int or float), str, bool, None, Ident, Struct,
    Tuple, List and RonMap. Raises RonError with the line and column."""
    return _Parser(text, origin).document()


def ron_float(x):
    """A float as RON reads it back to the same double (Python's shortest repr)."""
    x = float(x)
    if not math.isfinite(x):
        raise ValueError(f"{x} is not a finite number")
    return repr(x)


def ron_string(s):
    out = []
    for c in s:
        if c in '"\\':
            out.append("\\" + c)
        elif c == "\n":
            out.append("\\n")
        elif c == "\t":
            out.append("\\t")
        elif c == "\r":
            out.append("\\r")
        elif ord(c) < 0x20 or ord(c) == 0x7F:
            out.append("\\u{%x}" % ord(c))
        else:
            out.append(c)
    return '"' + "".join(out) + '"'


# --------------------------------------------------------------------------------------------
# The project: reading and checking a file's tracks (no Blender needed)
# --------------------------------------------------------------------------------------------


class ProjectKey:
    __slots__ = ("time", "value", "handles", "left", "right", "interpolation", "easing", "back", "amplitude", "period")


class ProjectTrack:
    __slots__ = ("name", "kind", "interpolation", "order", "pre", "post", "smoothing", "keys", "line")


PROJECT_FIELDS = ("version", "fps", "tracks", "skeleton")
TRACK_FIELDS = ("name", "kind", "interpolation", "order", "tangents", "ending_start", "ending_end", "pre_infinity", "post_infinity", "auto_smoothing", "color", "visible", "locked", "binding", "keys")
KEY_FIELDS = ("time", "value", "tension", "continuity", "bias", "ease_to", "ease_from", "handles", "left", "right", "interpolation", "easing", "back", "amplitude", "period")


class _Checker:
    """Turns the parsed file into ProjectTracks, with errors at the offending field."""

    def __init__(self, origin):
        self.origin = origin

    def known(self, node, fields, place):
        """Refuses a field the format does not have, as Tangent does (a misspelt field would
        otherwise be read as its default)."""
        import difflib

        for field in node:
            if field not in fields:
                near = difflib.get_close_matches(field, fields, n=1)
                hint = f"; did you mean `{near[0]}`?" if near else ""
                raise self.fail(node, field, f"unknown field `{field}` in {place}{hint}")

    def fail(self, node, field, message):
        line, column = node.positions.get(field, (node.line, node.column)) if isinstance(node, Struct) else (getattr(node, "line", None), getattr(node, "column", None))
        return RonError(message, line, column, self.origin)

    def struct(self, value, what, node, field):
        if not isinstance(value, Struct):
            raise self.fail(node, field, f"{what} must be a struct `(field: value, ...)`")
        return value

    def number(self, node, field, what, default=None):
        if field not in node:
            if default is None:
                raise self.fail(node, None, f"{what}: missing field `{field}`")
            return default
        v = node[field]
        if isinstance(v, bool) or not isinstance(v, (int, float)):
            raise self.fail(node, field, f"{what}: `{field}` must be a number")
        if not math.isfinite(v):
            raise self.fail(node, field, f"{what}: `{field}` is {v}, which is not a finite number")
        return float(v)

    def ident(self, node, field, what, allowed, default=None):
        if field not in node:
            if default is None:
                raise self.fail(node, None, f"{what}: missing field `{field}`")
            return default
        v = node[field]
        if v is None:  # `None` reads as Option's None; here it is the variant (auto_smoothing: None)
            v = Ident("None")
        if not isinstance(v, Ident) or v not in allowed:
            shown = f"`{v}`" if isinstance(v, (Ident, int, float)) else f'the string "{v}" (write it without quotes)' if isinstance(v, str) else "that value"
            raise self.fail(node, field, f"{what}: `{field}` is {shown}; it must be one of {', '.join(allowed)}")
        return str(v)

    def numbers(self, node, field, what, dim):
        v = node.get(field)
        if not isinstance(v, list) or len(v) != dim or any(isinstance(x, bool) or not isinstance(x, (int, float)) for x in v):
            raise self.fail(node, field, f"{what}: `{field}` must be a list of {dim} number{'s' if dim > 1 else ''}")
        if not all(math.isfinite(x) for x in v):
            raise self.fail(node, field, f"{what}: `{field}` holds a number that is not finite")
        return [float(x) for x in v]

    def offsets(self, node, field, what, dim):
        if field not in node:
            return None
        v = node[field]
        ok = isinstance(v, list) and len(v) == dim and all(isinstance(p, list) and len(p) == 2 and all(isinstance(x, (int, float)) and not isinstance(x, bool) and math.isfinite(x) for x in p) for p in v)
        if not ok:
            raise self.fail(node, field, f"{what}: `{field}` must be {dim} finite `(dt, dv)` pair{'s' if dim > 1 else ''}, one per component")
        return [(float(p[0]), float(p[1])) for p in v]

    def key(self, node, what, dim, track_interpolation, parent):
        node = self.struct(node, what, parent, None)
        self.known(node, KEY_FIELDS, f"{what}")
        k = ProjectKey()
        k.time = self.number(node, "time", what)
        k.value = self.numbers(node, "value", what, dim)
        handles = node.get("handles", Tuple(None, node.line, node.column, [Ident("AutoClamped"), Ident("AutoClamped")]))
        if not (isinstance(handles, list) and len(handles) == 2 and all(isinstance(h, Ident) and h in HANDLE_TO_BLENDER for h in handles)):
            raise self.fail(node, "handles", f"{what}: `handles` must be `(LEFT, RIGHT)`, each one of {', '.join(HANDLE_TO_BLENDER)}")
        k.handles = (str(handles[0]), str(handles[1]))
        k.left, k.right = self.offsets(node, "left", what, dim), self.offsets(node, "right", what, dim)
        if track_interpolation == "Bezier":
            for side, types_i, offsets in (("left", 0, k.left), ("right", 1, k.right)):
                if k.handles[types_i] in ("Free", "Aligned") and offsets is None:
                    raise self.fail(node, "handles", f"{what}: a {k.handles[types_i]} {side} handle needs `{side}`")
        k.interpolation = self.ident(node, "interpolation", what, tuple(INTERPOLATION_TO_BLENDER), "Bezier")
        k.easing = self.ident(node, "easing", what, tuple(EASING_TO_BLENDER), "Auto")
        k.back = self.number(node, "back", what, DEFAULT_BACK)
        k.amplitude = self.number(node, "amplitude", what, DEFAULT_AMPLITUDE)
        k.period = self.number(node, "period", what, DEFAULT_PERIOD_SECONDS)
        return k

    def track(self, node, index, parent):
        node = self.struct(node, f"track {index}", parent, None)
        name = node.get("name")
        if not isinstance(name, str) or isinstance(name, Ident):
            raise self.fail(node, "name", f"track {index}: `name` must be a string")
        what = f'track "{name}"'
        self.known(node, TRACK_FIELDS, what)
        t = ProjectTrack()
        t.name, t.line = name, node.line
        t.kind = self.ident(node, "kind", what, tuple(KIND_DIM))
        t.interpolation = self.ident(node, "interpolation", what, TRACK_INTERPOLATIONS)
        t.order = self.ident(node, "order", what, EULER_ORDERS, "XYZ")
        t.pre = self.ident(node, "pre_infinity", what, INFINITIES, "Constant")
        t.post = self.ident(node, "post_infinity", what, INFINITIES, "Constant")
        t.smoothing = self.ident(node, "auto_smoothing", what, tuple(SMOOTHING_TO_BLENDER), "None")
        keys = node.get("keys")
        if not isinstance(keys, list) or not keys:
            raise self.fail(node, "keys", f"{what}: `keys` must be a list of at least one key")
        dim = KIND_DIM[t.kind]
        t.keys = [self.key(k, f"{what}, key {i}", dim, t.interpolation, keys) for i, k in enumerate(keys)]
        for i in range(1, len(t.keys)):
            if t.keys[i].time < t.keys[i - 1].time:
                raise self.fail(keys[i], "time", f"{what}, key {i}: time {t.keys[i].time} is before the previous key's time {t.keys[i - 1].time}; keys must be in time order")
        return t


def parse_project(text, origin="<ron>"):
    """(fps, tracks) of a Tangent project's text; RonError on malformed or invalid input."""
    top = read_ron(text, origin)
    checker = _Checker(origin)
    if not isinstance(top, Struct):
        raise RonError("a Tangent project is a struct `(version: ..., fps: ..., tracks: [...])`", 1, 1, origin)
    checker.known(top, PROJECT_FIELDS, "the project")
    version = top.get("version")
    if not isinstance(version, int) or isinstance(version, bool):
        raise checker.fail(top, "version", "the project needs `version: N` (a whole number)")
    if version > FORMAT_VERSION:
        raise checker.fail(top, "version", f"file format version {version} is newer than this add-on reads (1 to {FORMAT_VERSION}); update the add-on")
    fps = checker.number(top, "fps", "the project", 60.0)
    if fps <= 0:
        raise checker.fail(top, "fps", f"the project: `fps` is {fps}; it must be above 0")
    tracks = top.get("tracks")
    if not isinstance(tracks, list):
        raise checker.fail(top, "tracks", "the project needs `tracks: [...]`")
    out, names = [], set()
    for i, node in enumerate(tracks):
        track = checker.track(node, i, tracks)
        if track.name in names:
            raise checker.fail(node, "name", f'track "{track.name}": the name is used by an earlier track; names must be unique')
        names.add(track.name)
        out.append(track)
    return fps, out


# --------------------------------------------------------------------------------------------
# Names: OBJECT:DATA_PATH[INDEX]
# --------------------------------------------------------------------------------------------

_RNA_PATH = re.compile(r'(?:[A-Za-z_][A-Za-z0-9_]*|\["(?:[^"\\]|\\.)*"\])(?:\.[A-Za-z_][A-Za-z0-9_]*|\["(?:[^"\\]|\\.)*"\]|\[[0-9]+\])*')


def track_name(object_name, data_path, index):
    return f"{object_name}:{data_path}[{index}]"


def split_track_name(name, exists=lambda object_name: False):
    """(object, data_path, index) of a name written by export, or None. An object name may
    hold ':' too: of the places the name could be cut, the one where the rest is a data path
    and the object exists wins, else the first where the rest is a data path."""
    m = re.fullmatch(r"(.+)\[([0-9]+)\]", name, re.S)
    if not m:
        return None
    head, index = m.group(1), int(m.group(2))
    candidates = []
    for at in [i for i, c in enumerate(head) if c == ":"]:
        obj, path = head[:at], head[at + 1:]
        if obj and _RNA_PATH.fullmatch(path):
            candidates.append((obj, path, index))
    for c in candidates:
        if exists(c[0]):
            return c
    return candidates[0] if candidates else None


# --------------------------------------------------------------------------------------------
# Where an ID's F-curves are, by Blender version
# --------------------------------------------------------------------------------------------
#
# Blender 4.4 brought slotted actions: an action holds slots (one per animated ID, or shared),
# layers and strips, and a keyframe strip holds one channel bag of F-curves per slot; the ID's
# animation data names its action *and* its slot. Blender 4.4 and 4.5 still had `Action.fcurves`
# (the first slot's channel bag); 5.0 removed it. Blender 3.4 to 4.3: the action's `fcurves`.
# Blender 4.4 to 5.0 have one layer with one strip at most; the functions below read every
# layer and strip and make the first of each.


def slotted_actions():
    """Whether this Blender keeps F-curves in channel bags of action slots (4.4 and later)."""
    return bpy is not None and bpy.app.version >= (4, 4, 0)


def _channelbag(action, slot, ensure=False):
    """The channel bag of `slot` in a slotted action (made with a layer and a keyframe strip
    when `ensure` and missing), or None."""
    for layer in action.layers:
        for strip in layer.strips:
            if strip.type == "KEYFRAME":
                bag = strip.channelbag(slot)
                if bag is not None:
                    return bag
    if not ensure:
        return None
    layer = action.layers[0] if len(action.layers) else action.layers.new("Layer")
    strips = [s for s in layer.strips if s.type == "KEYFRAME"]
    strip = strips[0] if strips else layer.strips.new(type="KEYFRAME")
    return strip.channelbag(slot, ensure=True)


def id_fcurves(id_data):
    """The F-curves animating an ID (an object, a shape key block...) through its active action:
    the channel bag of its action slot where Blender has slots, the action's `fcurves` where it
    has not. (F-curves, note): the note says why an action animates nothing (no slot), or None."""
    ad = id_data.animation_data
    action = ad.action if ad is not None else None
    if action is None:
        return [], None
    if not slotted_actions():
        return list(action.fcurves), None
    slot = ad.action_slot
    if slot is None:
        slots = ", ".join(f'"{s.name_display}"' for s in action.slots) or "none"
        return [], f'the action "{action.name}" is assigned without a slot (its slots: {slots}), so it animates nothing'
    bag = _channelbag(action, slot)
    return (list(bag.fcurves) if bag is not None else []), None


def action_fcurves(action, id_type="OBJECT"):
    """The F-curve collection of an action not (yet) assigned to anything, for scripts that
    build curves to evaluate them: the action's `fcurves` before 4.4, else the channel bag of
    its first slot (a slot for `id_type` made if it has none). New F-curves there take no
    group argument that works in every version: `new(data_path, index=...)`."""
    if not slotted_actions():
        return action.fcurves
    slot = action.slots[0] if len(action.slots) else action.slots.new(id_type=id_type, name=action.name)
    return _channelbag(action, slot, ensure=True).fcurves


def script_args(argv=None):
    """A script's own arguments, both when Blender runs it (`blender -b --python SCRIPT -- ARGS`:
    what follows `--`) and under the `bpy` module from PyPI (`python SCRIPT [--] ARGS`)."""
    import sys

    argv = sys.argv if argv is None else argv
    if "--" in argv:
        return argv[argv.index("--") + 1:]
    if bpy is not None and not bpy.app.binary_path:  # the bpy module: Python's own arguments
        return argv[1:]
    return []


def running_as_module():
    """Whether Blender is the `bpy` module in a Python interpreter (not the blender program)."""
    return bpy is not None and not bpy.app.binary_path


def script_exit(code):
    """Ends a script with `code`. Under the bpy module, without Python's shutdown: bpy 4.5's
    hangs there (after its leak report) and the process never ends; Blender's own exit is
    kept for the blender program (`--python-exit-code`)."""
    import os
    import sys

    sys.stdout.flush()
    sys.stderr.flush()
    if running_as_module():
        os._exit(code)
    sys.exit(code)


def fcurve_collection(id_data):
    """The collection new F-curves of an ID's active action go in (`find`, `new`, `remove`):
    the channel bag of the ID's slot, with the slot, layer, strip and bag made as needed where
    Blender has slots; the action's `fcurves` where it has not. The ID must have an action."""
    ad = id_data.animation_data
    action = ad.action
    if not slotted_actions():
        return action.fcurves
    slot = ad.action_slot
    if slot is None:
        slot = action.slots.new(id_type=id_data.id_type, name=id_data.name)
        ad.action_slot = slot
    return _channelbag(action, slot, ensure=True).fcurves


# --------------------------------------------------------------------------------------------
# Export
# --------------------------------------------------------------------------------------------


def scene_fps(scene):
    return scene.render.fps / scene.render.fps_base


def _f32_equal(a, b):
    import struct

    return struct.pack("<f", a) == struct.pack("<f", b)


def _infinity(fc, label, warnings):
    """(pre, post) of an F-curve: its extrapolation, or a usable Cycles modifier's modes."""
    extrapolation = EXTRAPOLATION_TO_TANGENT.get(fc.extrapolation, "Constant")
    pre = post = extrapolation
    for i, m in enumerate(fc.modifiers):
        if m.type != "CYCLES":
            warnings.append(f"{label}: {m.type.title()} modifier ignored (Tangent has no F-curve modifiers; apply it or bake first)")
            continue
        if m.mute:
            warnings.append(f"{label}: muted Cycles modifier ignored")
            continue
        problems = []
        if i != 0:
            problems.append("not the first modifier (Blender disables it there)")
        if m.use_restricted_range:
            problems.append("a restricted frame range")
        if m.use_influence:
            problems.append("an influence")
        if m.cycles_before or m.cycles_after:
            problems.append("a limited number of cycles")
        if problems:
            warnings.append(f"{label}: Cycles modifier with {', '.join(problems)} ignored; the track has no repetition")
            continue
        for side, mode in (("before", m.mode_before), ("after", m.mode_after)):
            if mode in CYCLE_MODE_TO_TANGENT:
                if side == "before":
                    pre = CYCLE_MODE_TO_TANGENT[mode]
                else:
                    post = CYCLE_MODE_TO_TANGENT[mode]
            elif mode != "NONE":
                warnings.append(f"{label}: Cycles mode {mode.title()} {side} the keys has no Tangent equivalent; ignored (extrapolation {extrapolation} there)")
    return pre, post


def _is_auto(k):
    """Blender's BEZT_IS_AUTOH: both handles Auto or Auto Clamped."""
    return k.handle_left_type in ("AUTO", "AUTO_CLAMPED") and k.handle_right_type in ("AUTO", "AUTO_CLAMPED")


def _warn_cyclic_linear(fc, pre, post, label, warnings):
    """Under Cycles on both sides a track's file has no extrapolation; import uses Constant.
    It matters only where Blender does not smooth through the cycle (an end key not
    automatic) and flattens an automatic end key's handles under Constant extrapolation."""
    cyclic = ("Cycle", "CycleOffset")
    points = fc.keyframe_points
    if pre in cyclic and post in cyclic and fc.extrapolation == "LINEAR" and len(points) >= 2:
        first, last = _is_auto(points[0]), _is_auto(points[-1])
        if first != last:
            warnings.append(f"{label}: Linear extrapolation under Cycles on both sides is not kept (Tangent's Cycle is Blender's with Constant extrapolation, which flattens the automatic end key's handles here); set the extrapolation to Constant, or make both end keys automatic")


def _key_text(k, fps, label, i):
    (t, v), (lx, ly), (rx, ry) = k.co, k.handle_left, k.handle_right
    for x in (t, v, lx, ly, rx, ry, k.back, k.amplitude, k.period):
        if not math.isfinite(x):
            raise ValueError(f"{label}, key {i}: {x} is not a finite number")
    fields = [
        f"time: {ron_float(t / fps)}",
        f"value: [{ron_float(v)}]",
        f"handles: ({HANDLE_TO_TANGENT[k.handle_left_type]}, {HANDLE_TO_TANGENT[k.handle_right_type]})",
        f"left: [({ron_float((lx - t) / fps)}, {ron_float(ly - v)})]",
        f"right: [({ron_float((rx - t) / fps)}, {ron_float(ry - v)})]",
        f"interpolation: {INTERPOLATION_TO_TANGENT[k.interpolation]}",
    ]
    if k.easing != "AUTO":
        fields.append(f"easing: {EASING_TO_TANGENT[k.easing]}")
    if not _f32_equal(k.back, DEFAULT_BACK):
        fields.append(f"back: {ron_float(k.back)}")
    if not _f32_equal(k.amplitude, DEFAULT_AMPLITUDE):
        fields.append(f"amplitude: {ron_float(k.amplitude)}")
    if not _f32_equal(k.period, DEFAULT_PERIOD_SECONDS * fps):
        fields.append(f"period: {ron_float(k.period / fps)}")
    return "(" + ", ".join(fields) + ")"


def _discrete_property(obj, fc):
    """Whether the F-curve drives an integer, boolean or enum property (Blender rounds)."""
    try:
        owner_path, _, prop = fc.data_path.rpartition(".")
        owner = obj.path_resolve(owner_path) if owner_path else obj
        if prop.startswith("["):
            return False
        rna = owner.bl_rna.properties.get(prop)
        return rna is not None and rna.type in ("INT", "BOOLEAN", "ENUM")
    except (ValueError, AttributeError, TypeError):
        return False


def fcurve_track_text(obj, fc, fps, warnings):
    """A track's RON text for one F-curve, or None (with a warning) if it has no keys."""
    name = track_name(obj.name, fc.data_path, fc.array_index)
    label = f'"{name}"'
    if len(fc.keyframe_points) == 0:
        warnings.append(f"{label}: no keyframes (baked samples are not exported); skipped")
        return None
    if fc.mute:
        warnings.append(f"{label}: muted in Blender; exported anyway")
    if _discrete_property(obj, fc):
        warnings.append(f"{label}: drives a whole-number property; Blender rounds the curve's values, Tangent keeps them")
    pre, post = _infinity(fc, label, warnings)
    _warn_cyclic_linear(fc, pre, post, label, warnings)
    keys = ",\n".join(" " * 16 + _key_text(k, fps, label, i) for i, k in enumerate(fc.keyframe_points))
    return (
        "        (\n"
        f"            name: {ron_string(name)},\n"
        "            kind: Scalar,\n"
        "            interpolation: Bezier,\n"
        f"            pre_infinity: {pre},\n"
        f"            post_infinity: {post},\n"
        f"            auto_smoothing: {SMOOTHING_TO_TANGENT[fc.auto_smoothing]},\n"
        "            keys: [\n"
        f"{keys},\n"
        "            ],\n"
        "        )"
    )


def project_text(objects, scene):
    """(text, track count, key count, warnings) of the objects' actions as a Tangent project."""
    fps = scene_fps(scene)
    warnings, tracks, key_count = [], [], 0
    for obj in sorted(objects, key=lambda o: o.name):
        ad = obj.animation_data
        if ad is None or ad.action is None:
            continue
        if ad.nla_tracks:
            warnings.append(f'"{obj.name}": NLA tracks are not exported, only the active action "{ad.action.name}"')
        if ":" in obj.name:
            warnings.append(f'"{obj.name}": the name holds ":"; import finds the object only while it exists')
        fcurves, note = id_fcurves(obj)
        if note:
            warnings.append(f'"{obj.name}": {note}; nothing exported from it')
        for fc in fcurves:
            text = fcurve_track_text(obj, fc, fps, warnings)
            if text is not None:
                tracks.append(text)
                key_count += len(fc.keyframe_points)
        key_data = getattr(getattr(obj.data, "shape_keys", None), "animation_data", None)
        if key_data is not None and key_data.action is not None:
            warnings.append(f'"{obj.name}": shape key animation ("{key_data.action.name}") is not exported')
    scene_name = scene.name.replace("\n", " ").replace("\r", " ")
    header = f"// Exported from Blender {bpy.app.version_string if bpy else '?'} by tangent_io.py (scene \"{scene_name}\")\n"
    body = ",\n".join(tracks)
    text = f"{header}(\n    version: {FORMAT_VERSION},\n    fps: {ron_float(fps)},\n    tracks: [\n{body}{',' if tracks else ''}\n    ],\n)\n"
    return text, len(tracks), key_count, warnings


def export_project(path, objects, scene):
    """Writes the project; returns (tracks, keys, warnings)."""
    text, tracks, keys, warnings = project_text(objects, scene)
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        f.write(text)
    return tracks, keys, warnings


# --------------------------------------------------------------------------------------------
# Import
# --------------------------------------------------------------------------------------------

UNSUPPORTED = {
    "Tcb": "Key > Convert to Bézier… in Tangent first, or bake it (`tangent bake --format csv`)",
    "Cubic": "Key > Convert to Bézier… in Tangent first, or bake it (`tangent bake --format csv`)",
    "Slerp": "convert it to Euler angles in Tangent first (Track > Convert rotation…, `tangent convert --to-euler ORDER`) or bake it",
    "Nlerp": "convert it to Euler angles in Tangent first (Track > Convert rotation…, `tangent convert --to-euler ORDER`) or bake it",
    "Squad": "convert it to Euler angles in Tangent first (Track > Convert rotation…, `tangent convert --to-euler ORDER`) or bake it",
}


class ImportResult:
    def __init__(self):
        self.fcurves = {}  # track name -> [(object, F-curve, component)]
        self.skipped = []  # messages
        self.warnings = []
        self.replaced = 0
        self.keys = 0
        self.fps_set = None


def _targets(track, objects_exist):
    """[(object name, data path, index, component)] for a track, or a reason it has none."""
    if track.kind == "Scalar":
        split = split_track_name(track.name, objects_exist)
        if split is not None:
            return [(split[0], split[1], split[2], 0)], None
    dim = KIND_DIM[track.kind]
    if track.kind == "Vec3":
        return [(track.name, "location", c, c) for c in range(3)], None
    if track.kind == "Euler":
        return [(track.name, "rotation_euler", c, c) for c in range(3)], None
    if track.kind == "Quat":
        if track.interpolation not in ("Step", "Bezier"):
            return None, UNSUPPORTED[track.interpolation]
        return [(track.name, "rotation_quaternion", (c + 1) % 4, c) for c in range(4)], None
    return [(track.name, '["value"]', c, c) for c in range(dim)], None


def _object_for(name, scene, result, made):
    """The object named `name` (an Empty made if there is none), with an action."""
    obj = made.get(name) or bpy.data.objects.get(name)
    if obj is None:
        obj = bpy.data.objects.new(name, None)
        obj.empty_display_type = "PLAIN_AXES"
        scene.collection.objects.link(obj)
        if obj.name != name:  # Blender's names are at most 63 bytes, and unique
            result.warnings.append(f'no object "{name}": made the Empty "{obj.name}" (Blender shortens names to 63 bytes)')
    made[name] = obj
    if obj.animation_data is None:
        obj.animation_data_create()
    if obj.animation_data.action is None:
        obj.animation_data.action = bpy.data.actions.new(f"{obj.name}Action")
    return obj


def _ensure_custom_property(obj, data_path, size):
    """Creates the custom property `["name"]` a path names if the object lacks it."""
    m = re.fullmatch(r'\["((?:[^"\\]|\\.)*)"\]', data_path)
    if not m:
        return
    prop = m.group(1).replace('\\"', '"').replace("\\\\", "\\")
    if prop in obj.keys():
        return
    obj[prop] = 0.0 if size == 1 else [0.0] * size


def _infinity_to_blender(track, label, warnings):
    """(extrapolation, cycles before mode, cycles after mode) for a track's infinities."""
    sides = []
    for side, mode in (("before", track.pre), ("after", track.post)):
        if mode == "PingPong":
            warnings.append(f"{label}: PingPong {side} the keys has no tested Blender equivalent (Cycles' Mirror is close); held Constant")
            mode = "Constant"
        sides.append(mode)
    plain = [m for m in sides if m in ("Constant", "Linear")]
    extrapolation = "CONSTANT"
    if plain:
        extrapolation = plain[-1].upper()
        if len(set(plain)) > 1:
            warnings.append(f"{label}: Blender has one extrapolation for both ends; pre {plain[0]}, post {plain[1]} became {plain[1]} on both")
    modes = [CYCLE_MODE_TO_BLENDER.get(m, "NONE") for m in sides]
    return extrapolation, modes[0], modes[1]


def _write_fcurve(fc, track, component, fps, extrapolation, cycle_modes):
    """The track's keys for one component, then Blender's handle recalculation."""
    # The curve's settings first: since Blender 3.6 setting them runs the F-curve's update,
    # which merges keys closer than 0.01 frames (see below).
    fc.auto_smoothing = SMOOTHING_TO_BLENDER[track.smoothing]
    fc.extrapolation = extrapolation
    if cycle_modes != ("NONE", "NONE"):
        cycles = fc.modifiers.new("CYCLES")
        cycles.mode_before, cycles.mode_after = cycle_modes
    points = fc.keyframe_points
    points.add(len(track.keys))
    for point, key in zip(points, track.keys):
        frame, value = key.time * fps, key.value[component]
        point.co = (frame, value)
        if track.interpolation == "Step":
            point.interpolation = "CONSTANT"
        elif track.interpolation == "Linear":
            point.interpolation = "LINEAR"
        else:
            point.interpolation = INTERPOLATION_TO_BLENDER[key.interpolation]
        point.handle_left_type = HANDLE_TO_BLENDER[key.handles[0]]
        point.handle_right_type = HANDLE_TO_BLENDER[key.handles[1]]
        left = key.left[component] if key.left else (-1.0 / 3.0 / fps, 0.0)
        right = key.right[component] if key.right else (1.0 / 3.0 / fps, 0.0)
        point.handle_left = (frame + left[0] * fps, value + left[1])
        point.handle_right = (frame + right[0] * fps, value + right[1])
        point.easing = EASING_TO_BLENDER[key.easing]
        point.back = key.back
        point.amplitude = key.amplitude
        point.period = key.period * fps
    if hasattr(points, "handles_recalc"):
        # Blender 3.6 and later (4.2.23 does, 3.4.1 does not): `fcurve.update()` also merges
        # keys closer than 0.01 frames (the last one wins), which would remove a jump's first
        # key; sort and recompute the handles as update() does, without the merge.
        points.sort()
        points.handles_recalc()
    else:
        fc.update()  # sorts, then Blender recomputes Auto, Auto Clamped and Vector handles


def _settle_fps(scene, fps, result):
    """Sets the scene's rate from the project's if the scene has no animation yet."""
    animated = any(o.animation_data is not None and o.animation_data.action is not None for o in scene.objects)
    current = scene_fps(scene)
    if not animated and abs(current - fps) > 1e-9 * fps:
        whole = max(1, round(fps))
        scene.render.fps, scene.render.fps_base = whole, whole / fps
        result.fps_set = scene_fps(scene)
    elif abs(current - fps) > 1e-9 * fps:
        result.warnings.append(f"the project is at {fps:g} fps, the scene at {current:g} fps (it has animation, so it was kept): keys keep their times in seconds (frame = seconds × {current:g})")


def import_tracks(fps, tracks, scene):
    """Creates the F-curves of parsed tracks in the scene; an ImportResult."""
    result = ImportResult()
    _settle_fps(scene, fps, result)
    rate = scene_fps(scene)
    exists = lambda name: name in bpy.data.objects  # noqa: E731
    plans, made = [], {}  # made: object name asked for -> object
    for track in tracks:
        label = f'track "{track.name}"'
        if track.interpolation not in ("Step", "Linear", "Bezier"):
            result.skipped.append(f"{label}: {track.interpolation} interpolation has no Blender F-curve equivalent; skipped. {UNSUPPORTED[track.interpolation][0].upper()}{UNSUPPORTED[track.interpolation][1:]}")
            continue
        targets, reason = _targets(track, exists)
        if targets is None:
            result.skipped.append(f"{label}: {track.kind} with {track.interpolation} interpolation has no Blender F-curve equivalent; skipped. {reason[0].upper()}{reason[1:]}")
            continue
        plans.append((track, targets))
    sizes = {}
    for _, targets in plans:
        for obj_name, path, index, _ in targets:
            sizes[(obj_name, path)] = max(sizes.get((obj_name, path), 0), index + 1)
    for track, targets in plans:
        label = f'track "{track.name}"'
        extrapolation, before, after = _infinity_to_blender(track, label, result.warnings)
        curves = []
        for obj_name, path, index, component in targets:
            obj = _object_for(obj_name, scene, result, made)
            if track.kind == "Euler" and path == "rotation_euler" and obj_name == track.name:
                obj.rotation_mode = track.order
            if track.kind == "Quat":
                obj.rotation_mode = "QUATERNION"
            _ensure_custom_property(obj, path, sizes[(obj_name, path)])
            fcurves = fcurve_collection(obj)
            old = fcurves.find(path, index=index)
            if old is not None:
                fcurves.remove(old)
                result.replaced += 1
            fc = fcurves.new(path, index=index)
            _write_fcurve(fc, track, component, rate, extrapolation, (before, after))
            try:
                obj.path_resolve(path)
            except ValueError:
                result.warnings.append(f'{label}: "{obj.name}" has no property `{path}`; the F-curve is there but drives nothing')
            curves.append((obj, fc, component))
            result.keys += len(track.keys)
        result.fcurves[track.name] = curves
    return result


def import_project(path, scene):
    """Reads a Tangent project file into the scene; an ImportResult. RonError if the file is
    malformed (nothing is changed then)."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    fps, tracks = parse_project(text, path)
    return import_tracks(fps, tracks, scene)


# --------------------------------------------------------------------------------------------
# Operators and menus
# --------------------------------------------------------------------------------------------


def _report_lines(operator, level, lines, limit=12):
    for line in lines:
        print(f"tangent_io: {line}")
    for line in lines[:limit]:
        operator.report({level}, line)
    if len(lines) > limit:
        operator.report({level}, f"... and {len(lines) - limit} more (see the system console)")


if bpy is not None:

    class EXPORT_ANIM_OT_tangent(bpy.types.Operator, ExportHelper):
        """Export the selected objects' F-curves as a Tangent project"""

        bl_idname = "export_anim.tangent_ron"
        bl_label = "Export Tangent project"
        bl_options = {"PRESET"}
        filename_ext = ".ron"
        filter_glob: StringProperty(default="*.ron", options={"HIDDEN"})
        use_selection: BoolProperty(name="Selected Objects", description="Only the selected objects' actions (else every object in the scene)", default=True)

        def execute(self, context):
            objects = context.selected_objects if self.use_selection else context.scene.objects
            try:
                text, tracks, keys, warnings = project_text(list(objects), context.scene)
            except ValueError as e:  # a key or handle that is not a finite number
                self.report({"ERROR"}, str(e))
                return {"CANCELLED"}
            if tracks == 0:
                _report_lines(self, "WARNING", warnings)
                self.report({"WARNING"}, "Tangent: no keyed F-curves on the " + ("selected objects" if self.use_selection else "scene's objects") + "; nothing written")
                return {"CANCELLED"}
            try:
                with open(self.filepath, "w", encoding="utf-8", newline="\n") as f:
                    f.write(text)
            except OSError as e:
                self.report({"ERROR"}, str(e))
                return {"CANCELLED"}
            _report_lines(self, "WARNING", warnings)
            self.report({"INFO"}, f"Tangent: {tracks} tracks, {keys} keys written to {self.filepath}")
            return {"FINISHED"}

    class IMPORT_ANIM_OT_tangent(bpy.types.Operator, ImportHelper):
        """Import a Tangent project's tracks as F-curves"""

        bl_idname = "import_anim.tangent_ron"
        bl_label = "Import Tangent project"
        bl_options = {"REGISTER", "UNDO"}
        filename_ext = ".ron"
        filter_glob: StringProperty(default="*.ron", options={"HIDDEN"})

        def execute(self, context):
            try:
                result = import_project(self.filepath, context.scene)
            except (OSError, UnicodeDecodeError, RonError) as e:
                self.report({"ERROR"}, str(e))
                return {"CANCELLED"}
            _report_lines(self, "WARNING", result.skipped + result.warnings)
            fps = f", scene set to {result.fps_set:g} fps" if result.fps_set is not None else ""
            replaced = f", {result.replaced} F-curves replaced" if result.replaced else ""
            self.report({"INFO"}, f"Tangent: {len(result.fcurves)} tracks imported, {len(result.skipped)} skipped{replaced}{fps}")
            return {"FINISHED"}

    def _menu_export(self, context):
        self.layout.operator(EXPORT_ANIM_OT_tangent.bl_idname, text="Tangent project (.ron)")

    def _menu_import(self, context):
        self.layout.operator(IMPORT_ANIM_OT_tangent.bl_idname, text="Tangent project (.ron)")

    _CLASSES = (EXPORT_ANIM_OT_tangent, IMPORT_ANIM_OT_tangent)


def register():
    for cls in _CLASSES:
        bpy.utils.register_class(cls)
    bpy.types.TOPBAR_MT_file_export.append(_menu_export)
    bpy.types.TOPBAR_MT_file_import.append(_menu_import)


def unregister():
    bpy.types.TOPBAR_MT_file_import.remove(_menu_import)
    bpy.types.TOPBAR_MT_file_export.remove(_menu_export)
    for cls in reversed(_CLASSES):
        bpy.utils.unregister_class(cls)


if __name__ == "__main__":
    register()
