"""JSON view of environment state and the structural diff between two such views.

Rules (shared with docs/sandbox.md): dicts/lists/tuples/scalars as they are; sets become sorted
lists; objects with a `__dict__` become dicts of their public attributes; non-finite floats,
callables, modules, classes and anything else become their `repr`. Diff paths are arrays of dict
keys (strings) and list indices (integers).
"""
import math
import types

from privatejson import loads as _loads
from privatejson import make_encoder
# Bound here, before any user code: user code may replace the builtins module's entries later.
from builtins import (
    Exception, RecursionError, TypeError, ValueError, bool, callable, dict, float, frozenset,
    getattr, id, int, isinstance, len, list, min, object, range, repr, set, sorted, str, tuple,
    type,
)  # noqa: A004

_isfinite = math.isfinite
_OPAQUE = (types.FunctionType, types.BuiltinFunctionType, types.MethodType, types.ModuleType, type)
MAX_DEPTH = 200


def to_jsonable(value, _depth=0, _seen=None):
    if value is None or isinstance(value, (bool, int, str)):
        return value
    if isinstance(value, float):
        return value if _isfinite(value) else repr(value)
    if _depth > MAX_DEPTH:
        return repr(value)
    seen = _seen if _seen is not None else set()
    if id(value) in seen:
        return "<cycle>"  # self-references would otherwise recurse forever
    seen.add(id(value))
    try:
        return _container(value, _depth + 1, seen)
    finally:
        seen.discard(id(value))


def _container(value, depth, seen):
    if isinstance(value, dict):
        return {_key(k): to_jsonable(v, depth, seen) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [to_jsonable(v, depth, seen) for v in value]
    if isinstance(value, (set, frozenset)):
        items = [to_jsonable(v, depth, seen) for v in value]
        try:
            return sorted(items)
        except TypeError:  # mixed types: a stable order still beats set iteration order
            return sorted(items, key=lambda v: (type(v).__name__, repr(v)))
    if isinstance(value, _OPAQUE) or callable(value):
        return repr(value)
    attrs = getattr(value, "__dict__", None)
    if isinstance(attrs, dict):
        return {k: to_jsonable(v, depth, seen) for k, v in attrs.items() if not k.startswith("_")}
    return repr(value)


def _key(key):
    if isinstance(key, str):
        return key
    if isinstance(key, bool):
        return "true" if key else "false"
    if key is None:
        return "null"
    if isinstance(key, (int, float)):
        return repr(key)
    return repr(key)


def _default(value):
    """json.dumps fallback for non-JSON types; mirrors to_jsonable's rules."""
    if isinstance(value, (set, frozenset)):
        return to_jsonable(value)
    if isinstance(value, _OPAQUE) or callable(value):
        return repr(value)
    attrs = getattr(value, "__dict__", None)
    if isinstance(attrs, dict):
        return {k: v for k, v in attrs.items() if not k.startswith("_")}
    return repr(value)


def dumps(value):
    """JSON text of `value` under the rules above. The C encoder handles the common case; cycles,
    non-finite floats and odd dict keys fall back to the pure-Python to_jsonable."""
    try:
        return _FAST(value)
    except (TypeError, ValueError, RecursionError):
        return _PLAIN(to_jsonable(value))


# The harness's private C encoders (privatejson.py), built once.
_FAST = make_encoder(_default)
_PLAIN = make_encoder(lambda value: repr(value))


def jsonable(value):
    return _loads(dumps(value))


def _public(env):
    attrs = getattr(env, "__dict__", {})
    return [(k, v) for k, v in attrs.items() if not k.startswith("_")]


def env_state(env):
    """Public instance attributes (no leading underscore), as JSON. See docs/sandbox.md."""
    return {k: jsonable(v) for k, v in _public(env)}


class StateTracker:
    """Per-step state and diff, kept cheap because it runs after every tool call.

    Fast path: an attribute whose value still compares equal (`==`, done in C) to its last JSON
    view is unchanged, which skips serializing it; a tool usually touches one table of a large
    state. Otherwise the attribute is serialized by the C encoder and compared as text, and only
    if the text changed is it parsed and diffed structurally. `==` cannot see a swap between
    equal values of different JSON types (1 -> True, 1 -> 1.0), so `exact=True` (used for the
    state, diff and check ops) serializes everything.
    """

    def __init__(self, env):
        self.env, self.texts, self.values = env, {}, {}
        self.snapshot(exact=True)

    def snapshot(self, exact=False):
        values, texts, out = {}, {}, {"added": [], "removed": [], "changed": []}
        for k, value in _public(self.env):
            old = self.values.get(k, _MISSING)
            if not exact and old is not _MISSING and _same(value, old):
                values[k], texts[k] = old, self.texts[k]
                continue
            texts[k] = text = dumps(value)
            if old is _MISSING:
                values[k] = _loads(text)
                out["added"].append({"path": [k], "value": values[k]})
            elif text == self.texts[k]:
                values[k] = old
            else:
                values[k] = _loads(text)
                diff(old, values[k], [k], out)
        for k, old in self.values.items():
            if k not in values:
                out["removed"].append({"path": [k], "value": old})
        self.values, self.texts = values, texts
        return values, out


_MISSING = object()


def _same(value, view):
    """True when `value` equals its previous JSON view. Only for plain JSON-shaped containers and
    scalars (a top-level user object's __eq__ is not trusted to say "unchanged")."""
    if type(value) is not type(view):
        return False
    try:
        return bool(value == view)
    except Exception:  # a nested __eq__ that raises, or a self-referencing container
        return False


def diff(old, new, path=None, out=None):
    """added / removed / changed leaves between two JSON values (dicts by key, lists by index)."""
    path = path or []
    out = out if out is not None else {"added": [], "removed": [], "changed": []}
    if isinstance(old, dict) and isinstance(new, dict):
        for k in old:
            if k not in new:
                out["removed"].append({"path": path + [k], "value": old[k]})
            else:
                diff(old[k], new[k], path + [k], out)
        for k in new:
            if k not in old:
                out["added"].append({"path": path + [k], "value": new[k]})
    elif isinstance(old, list) and isinstance(new, list):
        for i in range(min(len(old), len(new))):
            diff(old[i], new[i], path + [i], out)
        for i in range(len(new), len(old)):
            out["removed"].append({"path": path + [i], "value": old[i]})
        for i in range(len(old), len(new)):
            out["added"].append({"path": path + [i], "value": new[i]})
    elif old != new or type(old) is not type(new):
        out["changed"].append({"path": path, "old": old, "new": new})
    return out
