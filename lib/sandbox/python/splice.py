"""Replace whole definitions in a source with the ones a repair patch gives, by `ast` only (never executed).

A patch is one or more complete `def`s (or a `class <Name>:` holding only `def`s, for methods).
The result is the source with exactly those definitions' lines replaced and every other line kept
byte for byte. A patch that does not parse, holds anything but definitions, defines a name the
source does not have, redefines one it was not asked to change, or changes nothing is refused with
the reason (phrased for the model that wrote it).
"""
import ast

from analyze import find_class
# Bound here, before any user code: user code may replace the builtins module's entries later.
from builtins import SyntaxError, isinstance, min, set, sorted, str  # noqa: A004

_DEFS = (ast.FunctionDef, ast.AsyncFunctionDef)


def _refuse(reason):
    return {"source": None, "replaced": [], "refusal": reason}


def _first_line(node):
    return min([node.lineno] + [d.lineno for d in node.decorator_list])


def _lines_of(lines, node):
    """The definition's lines (decorators included), dedented by its own indentation."""
    chunk = lines[_first_line(node) - 1:node.end_lineno]
    cut = node.col_offset
    return [line[cut:] if line[:cut].strip() == "" else line.lstrip() for line in chunk]


def _is_docstring(node):
    return isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str)


def dedent(text):
    """A method sent at its class's indentation parses at column 0 (as textwrap.dedent, without importing it)."""
    lines = text.splitlines()
    indents = [len(line) - len(line.lstrip()) for line in lines if line.strip()]
    cut = min(indents) if indents else 0
    return "\n".join(line[cut:] for line in lines) + "\n"


def _patch_defs(patch, class_name):
    """The patch's definitions, or a refusal: only defs (for a class, also `class <Name>:` of defs)."""
    try:
        tree = ast.parse(patch, filename="<patch>")
    except SyntaxError as e:
        return None, f"the Python in your answer does not parse: line {e.lineno or 1}: {e.msg or 'invalid syntax'}"
    defs = []
    for node in tree.body:
        if isinstance(node, _DEFS):
            defs.append(node)
        elif class_name and isinstance(node, ast.ClassDef) and node.name == class_name:
            for item in node.body:
                if isinstance(item, _DEFS):
                    defs.append(item)
                elif not _is_docstring(item):
                    return None, (f"line {item.lineno} inside class {class_name} is not a method definition; "
                                  "send only the complete methods you change")
        elif not _is_docstring(node):
            return None, (f"line {node.lineno} is not a function definition; send only complete definitions "
                          "(no imports, assignments or other statements outside them)")
    if not defs:
        return None, "your answer defines no function; send the complete corrected definition in a ```python block"
    names = [d.name for d in defs]
    twice = sorted(set(n for n in names if names.count(n) > 1))
    if twice:
        return None, f"your answer defines {', '.join(twice)} more than once"
    return defs, None


def _targets(tree, class_name):
    """The definitions of the item a patch may replace: top-level functions, or the class's methods."""
    if not class_name:
        return {n.name: n for n in tree.body if isinstance(n, _DEFS)}, None
    cls = find_class(tree, class_name)
    if cls is None:
        return None, f"class '{class_name}' is not defined at the top level of the source"
    return {n.name: n for n in cls.body if isinstance(n, _DEFS)}, None


def splice(source, patch, class_name, allowed):
    """`allowed`: the names the repair was asked to change (None: any definition the source has)."""
    try:
        tree = ast.parse(source, filename="<source>")
    except SyntaxError as e:
        return _refuse(f"the current source does not parse (line {e.lineno or 1}); it cannot be patched")
    targets, problem = _targets(tree, class_name)
    if problem:
        return _refuse(problem)
    patch = dedent(patch)
    defs, problem = _patch_defs(patch, class_name)
    if problem:
        return _refuse(problem)
    what = f"class {class_name}" if class_name else "the item"
    for node in defs:
        if node.name not in targets:
            have = ", ".join(sorted(targets)) or "none"
            return _refuse(f"`{node.name}` is not defined in {what} (it has: {have}); "
                           "you may only replace existing definitions")
        if allowed is not None and node.name not in allowed:
            return _refuse(f"you redefined `{node.name}`, which you were not asked to change; "
                           f"change only {', '.join(sorted(allowed))}")
    lines = source.splitlines()
    patch_lines = patch.splitlines()
    changed = []
    # Bottom-up, so the line numbers of the definitions above stay valid.
    for node in sorted(defs, key=lambda d: _first_line(targets[d.name]), reverse=True):
        old = targets[node.name]
        indent = " " * old.col_offset
        new_body = [indent + line if line.strip() else "" for line in _lines_of(patch_lines, node)]
        old_body = lines[_first_line(old) - 1:old.end_lineno]
        if [line.rstrip() for line in new_body] == [line.rstrip() for line in old_body]:
            continue
        lines[_first_line(old) - 1:old.end_lineno] = new_body
        changed.append(node.name)
    if not changed:
        return _refuse("your definitions are identical to the current ones: nothing would change")
    result = "\n".join(lines) + ("\n" if source.endswith("\n") else "")
    try:
        ast.parse(result, filename="<patched>")
    except SyntaxError as e:
        return _refuse(f"the patched source does not parse: line {e.lineno or 1}: {e.msg or 'invalid syntax'}")
    return {"source": result, "replaced": sorted(changed), "refusal": None}
