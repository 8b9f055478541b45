"""Static analysis of environment source with `ast`: OpenAI tool schemas and editor diagnostics.

Nothing here executes user code; it only parses it, so `analyze` is safe on any worker.
"""
import ast
# Bound here, before any user code: user code may replace the builtins module's entries later.
from builtins import (
    Ellipsis, SyntaxError, any, bool, dict, float, int, isinstance, len, list, set, str,
)  # noqa: A004

# Modules a generated environment has no business importing. They are blocked at run time as well
# (lockdown.py); reporting them statically lets the editor flag them before anything runs.
FORBIDDEN_IMPORTS = (
    "subprocess", "socket", "ctypes", "multiprocessing", "threading", "asyncio", "signal",
    "urllib", "http", "ftplib", "smtplib", "telnetlib", "ssl", "webbrowser", "requests",
    "js", "pyodide", "pyodide_js", "_pyodide", "micropip", "pty", "fcntl", "resource", "shutil",
    "importlib", "_posixsubprocess", "_ctypes", "mmap",
)

_SIMPLE = {"str": "string", "int": "integer", "float": "number", "bool": "boolean",
           "None": "null", "NoneType": "null"}
_ARRAYS = {"list", "List", "Sequence", "Iterable", "tuple", "Tuple", "set", "Set", "frozenset",
           "FrozenSet", "MutableSequence", "Collection"}
_OBJECTS = {"dict", "Dict", "Mapping", "MutableMapping", "OrderedDict", "DefaultDict", "defaultdict"}
_WRAPPERS = {"Required", "NotRequired", "ReadOnly", "Final", "Annotated"}


def _name(node):
    """`List`, `typing.List` and `t.List` all map to 'List'."""
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return None


class SchemaBuilder:
    """Turns annotation nodes into JSON Schema, resolving TypedDicts defined in the module."""

    def __init__(self, tree):
        self.typed_dicts = {}
        for node in ast.walk(tree):
            if isinstance(node, ast.ClassDef) and any(_name(b) == "TypedDict" for b in node.bases):
                self.typed_dicts[node.name] = node
        self._resolving = set()

    def annotation(self, node):
        if node is None:
            return {}
        if isinstance(node, ast.Constant):
            if node.value is None:
                return {"type": "null"}
            if isinstance(node.value, str):  # forward reference: "List[int]"
                try:
                    return self.annotation(ast.parse(node.value, mode="eval").body)
                except SyntaxError:
                    return {}
            return {}
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
            return self._union([node.left, node.right])
        if isinstance(node, ast.Subscript):
            return self._generic(_name(node.value), node.slice)
        name = _name(node)
        if name in _SIMPLE:
            return {"type": _SIMPLE[name]}
        if name in _ARRAYS:
            return {"type": "array"}
        if name in _OBJECTS:
            return {"type": "object"}
        if name in self.typed_dicts:
            return self._typed_dict(name)
        return {}  # Any, custom classes: accept anything rather than guess

    def _generic(self, name, arg):
        args = list(arg.elts) if isinstance(arg, ast.Tuple) else [arg]
        if name in ("Optional",):
            return self._union(args + [ast.Constant(value=None)])
        if name == "Union":
            return self._union(args)
        if name == "Literal":
            values = [a.value for a in args if isinstance(a, ast.Constant)]
            schema = {"enum": values}
            kinds = {_json_type(v) for v in values}
            if len(kinds) == 1:
                schema["type"] = kinds.pop()
            return schema
        if name in _WRAPPERS:
            return self.annotation(args[0])
        if name in _ARRAYS:
            # Tuple[int, str] is heterogeneous: no single item schema fits, so leave items open.
            homogeneous = len(args) == 1 or (len(args) == 2 and _is_ellipsis(args[1]))
            items = self.annotation(args[0]) if homogeneous else {}
            return {"type": "array", "items": items} if items else {"type": "array"}
        if name in _OBJECTS:
            value = self.annotation(args[1]) if len(args) == 2 else {}
            return {"type": "object", "additionalProperties": value} if value else {"type": "object"}
        return {}

    def _union(self, nodes):
        has_null = any(_is_none(n) for n in nodes)
        options = [self.annotation(n) for n in nodes if not _is_none(n)]
        if len(options) == 1:
            schema = dict(options[0])
        elif any(o == {} for o in options):
            schema = {}
        else:
            schema = {"anyOf": options}
        if has_null and "type" in schema and isinstance(schema["type"], str):
            schema["type"] = [schema["type"], "null"]
        elif has_null and "anyOf" in schema:
            schema["anyOf"].append({"type": "null"})
        return schema

    def _typed_dict(self, name):
        if name in self._resolving:  # recursive TypedDict: stop instead of looping
            return {"type": "object"}
        self._resolving.add(name)
        node = self.typed_dicts[name]
        total = not any(k.arg == "total" and isinstance(k.value, ast.Constant) and k.value.value is False
                        for k in node.keywords)
        properties, required = {}, []
        for item in node.body:
            if isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name):
                key = item.target.id
                properties[key] = self.annotation(item.annotation)
                wrapper = _name(item.annotation.value) if isinstance(item.annotation, ast.Subscript) else None
                if wrapper == "Required" or (total and wrapper != "NotRequired"):
                    required.append(key)
        self._resolving.discard(name)
        schema = {"type": "object", "properties": properties}
        if required:
            schema["required"] = required
        return schema


def _is_none(node):
    return (isinstance(node, ast.Constant) and node.value is None) or _name(node) in ("None", "NoneType")


def _is_ellipsis(node):
    return isinstance(node, ast.Constant) and node.value is Ellipsis


def _json_type(value):
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "number"
    if isinstance(value, str):
        return "string"
    return "null"
