"""Docstring parsing for tool schemas: Google (`Args:`) and numpy (`Parameters` + dashes) styles.

Returns (summary, {arg: description}). The summary is the first paragraph; sections such as
Returns/Raises/Examples are not part of the tool description.
"""
import re
# Bound here, before any user code: user code may replace the builtins module's entries later.
from builtins import bool, enumerate, len, min, set  # noqa: A004

_GOOGLE_ARGS = re.compile(r"^(Args|Arguments|Parameters|Params|Keyword Args|Kwargs)\s*:\s*$")
_GOOGLE_OTHER = re.compile(r"^(Returns?|Yields?|Raises?|Examples?|Notes?|Attributes|See Also|Todo)\s*:\s*$")
_GOOGLE_ENTRY = re.compile(r"^\*{0,2}(\w+)\s*(\([^)]*\))?\s*:\s*(.*)$")
_NUMPY_ENTRY = re.compile(r"^\*{0,2}(\w+)\s*(:.*)?$")


def parse_docstring(doc):
    if not doc:
        return "", {}
    lines = _dedent(doc.expandtabs().strip("\n").splitlines())
    summary = _summary(lines)
    args = _numpy_args(lines)
    if not args:
        args = _google_args(lines)
    return summary, args


def _dedent(lines):
    if not lines:
        return lines
    first, rest = lines[0].strip(), lines[1:]
    indents = [len(l) - len(l.lstrip()) for l in rest if l.strip()]
    cut = min(indents) if indents else 0
    return [first] + [l[cut:].rstrip() for l in rest]


def _is_section_start(lines, i):
    line = lines[i].strip()
    if _GOOGLE_ARGS.match(line) or _GOOGLE_OTHER.match(line):
        return True
    nxt = lines[i + 1].strip() if i + 1 < len(lines) else ""
    return bool(line) and bool(nxt) and set(nxt) == {"-"}


def _summary(lines):
    out = []
    for i, line in enumerate(lines):
        if not line.strip() or _is_section_start(lines, i):
            if out:
                break
            if line.strip():
                break
            continue
        out.append(line.strip())
    return " ".join(out)


def _google_args(lines):
    args, current, base = {}, None, None
    inside = False
    for line in lines:
        stripped = line.strip()
        indent = len(line) - len(line.lstrip())
        if _GOOGLE_ARGS.match(stripped):
            inside, current, base = True, None, None
            continue
        if not inside:
            continue
        if _GOOGLE_OTHER.match(stripped) or (stripped and base is not None and indent < base):
            inside = False
            continue
        if not stripped:
            continue
        match = _GOOGLE_ENTRY.match(stripped)
        if match and (base is None or indent == base):
            base = indent
            current = match.group(1)
            args[current] = match.group(3).strip()
        elif current is not None:
            args[current] = (args[current] + " " + stripped).strip()
    return args


def _numpy_args(lines):
    for i, line in enumerate(lines):
        nxt = lines[i + 1].strip() if i + 1 < len(lines) else ""
        if line.strip() in ("Parameters", "Other Parameters") and nxt and set(nxt) == {"-"}:
            return _numpy_block(lines[i + 2:])
    return {}


def _numpy_block(lines):
    args, current, base = {}, None, None
    for i, line in enumerate(lines):
        stripped = line.strip()
        nxt = lines[i + 1].strip() if i + 1 < len(lines) else ""
        if stripped and nxt and set(nxt) == {"-"}:
            break  # the next section begins
        indent = len(line) - len(line.lstrip())
        if not stripped:
            continue
        if base is None or indent <= base:
            match = _NUMPY_ENTRY.match(stripped)
            if not match:
                break
            base, current = indent, match.group(1)
            args[current] = ""
        elif current is not None:
            args[current] = (args[current] + " " + stripped).strip()
    return args
