"""What `load` derives from an environment's source, prepared once per worker and source.

A worker (or python3 process) is reused only for the same source, so its resets would otherwise
parse the source, extract the tool schemas and build the argument validators again every episode.
Only things that are pure functions of the source text are kept: the compiled code object, the
AST-derived schemas, the validators and the module names to pre-import. The module body is still
executed into a fresh namespace on every load, so class attributes and module globals start
pristine in each episode.
"""
import ast

from analyze import extract_tools
from validate import compile_arguments
# Bound here, before any user code: user code may replace the builtins module's entries later.
from builtins import SyntaxError, compile, isinstance, iter, len, next, set, sorted  # noqa: A004

_MAX_ENTRIES = 4  # a worker serves one source; a few entries cover callers that alternate
_cache = {}


class Prepared:
    __slots__ = ("code", "schemas", "validators", "modules", "preimported")

    def __init__(self, code, schemas, modules):
        self.code = code
        self.schemas = schemas
        self.validators = {s["function"]["name"]: compile_arguments(s["function"]["parameters"]) for s in schemas}
        self.modules = modules
        self.preimported = False


def cached(source_key, class_name):
    """The preparation of a source the caller names by its key (the runner's hash of the text),
    or None: a load can then leave the source out, which in wasm saves converting and parsing
    ~150 KB of request per episode of a large class."""
    return _cache.get((source_key, class_name))


def prepare(source, class_name, fail, source_key=None):
    """The cached preparation of (source, class_name), filed under `source_key` when given;
    `fail(message)` raises the caller's error for sources that do not parse or lack the class
    (never cached: they cost nothing to redo)."""
    key = (source if source_key is None else source_key, class_name)
    entry = _cache.get(key)
    if entry is not None:
        return entry
    try:
        tree = ast.parse(source, filename="<environment>")
    except SyntaxError as e:
        fail(f"SyntaxError at line {e.lineno}, column {e.offset}: {e.msg}")
    schemas = extract_tools(tree, class_name)
    if schemas is None:
        fail(f"class '{class_name}' is not defined at the top level of the source")
    entry = Prepared(compile(tree, "<environment>", "exec"), schemas, imported_modules(tree))
    if len(_cache) >= _MAX_ENTRIES:
        del _cache[next(iter(_cache))]
    _cache[key] = entry
    return entry


def imported_modules(tree):
    """Every module the source names anywhere, also inside methods."""
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module)
    return sorted(names)
