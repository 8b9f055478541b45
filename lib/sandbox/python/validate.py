"""Argument validation against the JSON Schema subset that analyze.py emits."""
# Bound here, before any user code: user code may replace the builtins module's entries later.
from builtins import all, any, bool, dict, enumerate, float, int, isinstance, len, list, set, str, type  # noqa: A004

_TYPES = {
    "string": lambda v: isinstance(v, str),
    "integer": lambda v: isinstance(v, int) and not isinstance(v, bool),
    "number": lambda v: isinstance(v, (int, float)) and not isinstance(v, bool),
    "boolean": lambda v: isinstance(v, bool),
    "array": lambda v: isinstance(v, list),
    "object": lambda v: isinstance(v, dict),
    "null": lambda v: v is None,
}


def check_arguments(schema, arguments):
    """Returns a list of problems ("" when fine) for a call's arguments."""
    if not isinstance(arguments, dict):
        return ["arguments must be a JSON object"]
    problems = []
    properties = schema.get("properties", {})
    for name in schema.get("required", []):
        if name not in arguments:
            problems.append(f"missing required argument '{name}'")
    for name, value in arguments.items():
        if name not in properties:
            if schema.get("additionalProperties") is False:
                problems.append(f"unknown argument '{name}'")
            continue
        problems.extend(check_value(properties[name], value, name))
    return problems


def compile_arguments(schema):
    """check_arguments(schema, ·) prepared once per tool: a step validates its arguments on every
    call, and most parameters are a plain scalar type that needs one isinstance test. Anything
    else, and every failure (for the same message), goes through check_value."""
    properties = schema.get("properties", {})
    required = list(schema.get("required", []))
    closed = schema.get("additionalProperties") is False
    checks = {name: _compile_value(sub) for name, sub in properties.items()}

    def check(arguments):
        if not isinstance(arguments, dict):
            return ["arguments must be a JSON object"]
        problems = [f"missing required argument '{name}'" for name in required if name not in arguments]
        for name, value in arguments.items():
            value_check = checks.get(name)
            if value_check is None:
                if closed:
                    problems.append(f"unknown argument '{name}'")
                continue
            found = value_check(value, name)
            if found:
                problems.extend(found)
        return problems

    return check


_SCALARS = ("string", "integer", "number", "boolean", "null")
_ANNOTATIONS = {"description", "title", "default"}


def _compile_value(schema):
    fast = _fast_test(schema)
    if fast is None:
        return lambda value, where: check_value(schema, value, where)
    return lambda value, where: None if fast(value) else check_value(schema, value, where)


def _fast_test(schema):
    """A predicate that holds exactly when check_value(schema, value) finds no problem, for the
    common shapes (scalar types, optionally an enum; arrays of those); None for anything else."""
    keys = set(schema) - _ANNOTATIONS
    kind = schema.get("type")
    kinds = kind if isinstance(kind, list) else [kind]
    if keys <= {"type", "enum"} and kinds and all(k in _SCALARS for k in kinds):
        tests = [_TYPES[k] for k in kinds]
        enum = schema.get("enum")
        if enum is None and len(tests) == 1:
            return tests[0]
        return lambda v: (enum is None or v in enum) and any(test(v) for test in tests)
    if keys == {"type", "items"} and kind == "array" and isinstance(schema["items"], dict):
        item = _fast_test(schema["items"])
        if item is not None and schema["items"].get("type") != "array":
            return lambda v: isinstance(v, list) and all(item(x) for x in v)
    return None


def check_value(schema, value, where):
    if "anyOf" in schema:
        if any(not check_value(option, value, where) for option in schema["anyOf"]):
            return []
        return [f"'{where}' does not match any allowed type"]
    if "enum" in schema and value not in schema["enum"]:
        return [f"'{where}' must be one of {schema['enum']!r}"]
    kind = schema.get("type")
    kinds = kind if isinstance(kind, list) else [kind] if kind else []
    if kinds and not any(_TYPES[k](value) for k in kinds if k in _TYPES):
        return [f"'{where}' must be {' or '.join(kinds)}, got {_json_name(value)}"]
    if isinstance(value, list) and "items" in schema:
        for i, item in enumerate(value):
            found = check_value(schema["items"], item, f"{where}[{i}]")
            if found:
                return found
    if isinstance(value, dict):
        return _check_object(schema, value, where)
    return []


def _check_object(schema, value, where):
    for name in schema.get("required", []):
        if name not in value:
            return [f"'{where}' is missing key '{name}'"]
    for name, sub in schema.get("properties", {}).items():
        if name in value:
            found = check_value(sub, value[name], f"{where}.{name}")
            if found:
                return found
    extra = schema.get("additionalProperties")
    if isinstance(extra, dict):
        for name, item in value.items():
            if name not in schema.get("properties", {}):
                found = check_value(extra, item, f"{where}.{name}")
                if found:
                    return found
    return []


def _json_name(value):
    for name, test in _TYPES.items():
        if test(value):
            return "integer" if name == "integer" else name
    return type(value).__name__
