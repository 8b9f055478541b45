"""Tool schemas and editor diagnostics from environment source, by `ast` only (never executed)."""
import ast

from docstrings import parse_docstring
from toolschema import FORBIDDEN_IMPORTS, SchemaBuilder
# Bound here, before any user code: user code may replace the builtins module's entries later.
from builtins import SyntaxError, any, getattr, isinstance, len, list, set, sorted, str, zip  # noqa: A004


def find_class(tree, class_name):
    for node in tree.body:
        if isinstance(node, ast.ClassDef) and node.name == class_name:
            return node
    return None


def _class_methods(tree, cls, seen=None):
    """Methods of `cls` plus those inherited from base classes defined in the same module."""
    seen = seen or set()
    seen.add(cls.name)
    methods = {}
    for base in cls.bases:
        base_node = find_class(tree, base.id) if isinstance(base, ast.Name) else None
        if base_node is not None and base_node.name not in seen:
            methods.update(_class_methods(tree, base_node, seen))
    for item in cls.body:
        if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)):
            methods[item.name] = item
        elif isinstance(item, (ast.Assign, ast.AnnAssign)):
            for target in item.targets if isinstance(item, ast.Assign) else [item.target]:
                if isinstance(target, ast.Name):
                    methods.pop(target.id, None)  # rebinding a name hides an inherited method
    return methods


def _is_tool(name, func):
    if name.startswith("_"):
        return False
    decorators = {getattr(d, "id", getattr(d, "attr", None)) for d in func.decorator_list}
    # properties are attributes, not callables; static/class methods take no `self` but are fine
    return "property" not in decorators and not any(
        isinstance(d, ast.Attribute) and d.attr in ("setter", "getter", "deleter") for d in func.decorator_list)


def tool_schema(func, builder):
    summary, arg_docs = parse_docstring(ast.get_docstring(func))
    args = func.args
    decorators = {getattr(d, "id", None) for d in func.decorator_list}
    positional = args.posonlyargs + args.args
    if "staticmethod" not in decorators and positional:
        positional = positional[1:]  # self / cls
    defaults = [None] * (len(positional) - len(args.defaults)) + list(args.defaults)
    params = list(zip(positional, defaults)) + list(zip(args.kwonlyargs, args.kw_defaults))
    properties, required = {}, []
    for arg, default in params:
        schema = builder.annotation(arg.annotation)
        if arg_docs.get(arg.arg):
            schema["description"] = arg_docs[arg.arg]
        properties[arg.arg] = schema
        optional_type = isinstance(schema.get("type"), list) and "null" in schema["type"]
        nullable_any = any(s == {"type": "null"} for s in schema.get("anyOf", []))
        if default is None and not optional_type and not nullable_any:
            required.append(arg.arg)
    parameters = {"type": "object", "properties": properties, "required": required}
    if args.kwarg is None:
        parameters["additionalProperties"] = False
    return {"type": "function", "function": {"name": func.name, "description": summary,
                                             "parameters": parameters}}


def extract_tools(tree, class_name):
    cls = find_class(tree, class_name)
    if cls is None:
        return None
    builder = SchemaBuilder(tree)
    return [tool_schema(f, builder) for n, f in _class_methods(tree, cls).items() if _is_tool(n, f)]


def _forbidden_imports(tree):
    found = []
    for node in ast.walk(tree):
        names = []
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names = [node.module]
        for name in names:
            root = name.split(".")[0]
            if root in FORBIDDEN_IMPORTS:
                found.append({"module": name, "line": node.lineno})
        if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "__import__" and node.args:
            first = node.args[0]
            if isinstance(first, ast.Constant) and isinstance(first.value, str):
                if first.value.split(".")[0] in FORBIDDEN_IMPORTS:
                    found.append({"module": first.value, "line": node.lineno})
    return found


def analyze(source, class_name):
    """Everything the editor needs without running the code."""
    try:
        tree = ast.parse(source, filename="<environment>")
    except SyntaxError as e:
        error = {"message": e.msg or "invalid syntax", "line": e.lineno or 1, "column": e.offset or 1}
        if e.end_lineno:
            error.update({"end_line": e.end_lineno, "end_column": e.end_offset or error["column"]})
        return {"syntax_errors": [error], "class_found": False, "classes": [], "methods": [],
                "forbidden_imports": [], "has_async": False, "tools": []}
    cls = find_class(tree, class_name)
    methods = sorted(n for n, f in _class_methods(tree, cls).items() if _is_tool(n, f)) if cls else []
    return {
        "syntax_errors": [],
        "class_found": cls is not None,
        "classes": [n.name for n in tree.body if isinstance(n, ast.ClassDef)],
        "methods": methods,
        "forbidden_imports": _forbidden_imports(tree),
        "has_async": any(isinstance(n, (ast.AsyncFunctionDef, ast.AsyncFor, ast.AsyncWith, ast.Await))
                         for n in ast.walk(tree)),
        "tools": extract_tools(tree, class_name) or [],
    }
