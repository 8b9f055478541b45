"""Which check functions provably leave their arguments alone.

A check gets `final_state` as its argument and `initial_state` as a global, each a fresh copy so
that one check mutating them cannot change another's verdict. Parsing those copies is most of a
check's cost (a 6 KB state: ~170 us of the ~350 us per check in CPython). A check whose code can
only read may share one copy with the other checks of its call: the verdicts are the same.

"Can only read" is decided on the syntax tree and is conservative: no assignment or deletion to
anything but a plain name, no global/nonlocal, no class, no generator, and every call is to a
builtin, a method or a module function on an allow-list of functions that never mutate their
arguments, or to a function the check itself defines (also checked). Augmented assignment
mutates in place whatever the name holds (`x = final_state['a']; x |= {...}`), so it is allowed
only on a name that every binding in the check sets to a number or string literal (a counter):
`+=` on those makes a new object. Anything else - including a method we do not know, such as
`append` or `random.shuffle` - gets the copies.
"""
import ast
# Bound here, before any user code: user code may replace the builtins module's entries later.
from builtins import (
    RecursionError, SyntaxError, ValueError, all, bytes, complex, float, frozenset, getattr, id,
    int, isinstance, len, set, str, type,
)  # noqa: A004

_PURE_NAMES = frozenset(
    "len sum any all isinstance issubclass str int float bool round abs min max sorted list dict set "
    "frozenset tuple enumerate zip range reversed map filter repr hasattr iter next print "
    "divmod pow chr ord hash format ascii bin hex oct callable type id".split()
)
_PURE_METHODS = frozenset(
    "get keys values items count index copy lower upper strip lstrip rstrip startswith endswith split "
    "rsplit splitlines join replace format find rfind isdigit isalpha isalnum isnumeric isdecimal "
    "isspace islower isupper title capitalize casefold zfill partition rpartition encode decode "
    "union intersection difference symmetric_difference issubset issuperset isdisjoint "
    "fromisoformat strptime strftime isoformat date time timestamp total_seconds weekday isoweekday "
    "today now utcnow dumps loads isclose sqrt floor ceil fabs log exp is_integer as_integer_ratio "
    "bit_length fromkeys".split()
)
# Callables that mutate an argument, refused wherever they appear - also as values handed to a
# pure higher-order function (`list(map(state["a"].append, xs))`, `map(random.shuffle, xs)`).
_MUTATORS = frozenset(
    "append extend insert pop popitem remove clear update setdefault sort reverse add discard "
    "appendleft extendleft rotate heappush heappop heapify heapreplace heappushpop shuffle insort "
    "insort_left insort_right setitem delitem iadd iand ior isub ixor iconcat move_to_end "
    "intersection_update difference_update symmetric_difference_update write dump".split()
)
_BLOCKED_NAMES = frozenset(
    "setattr delattr exec eval compile __import__ globals locals vars open breakpoint input "
    "memoryview bytearray object super".split()
)
_MUTATING_NODES = (ast.Global, ast.Nonlocal, ast.Delete, ast.ClassDef, ast.Yield, ast.YieldFrom,
                   ast.Await, ast.AsyncFunctionDef)
_cache = {}


def reads_only(source):
    """True if the check source provably does not mutate what it is given (cached per source)."""
    known = _cache.get(source)
    if known is None:
        try:
            known = _reads_only(ast.parse(source))
        except (SyntaxError, ValueError, RecursionError):
            known = False
        if len(_cache) > 512:
            _cache.clear()
        _cache[source] = known
    return known


def _reads_only(tree):
    own = {n.name for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)}
    counters = _scalar_names(tree)
    for node in ast.walk(tree):
        if isinstance(node, _MUTATING_NODES):
            return False
        if isinstance(node, ast.AugAssign):
            if not (isinstance(node.target, ast.Name) and node.target.id in counters):
                return False
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            if not all(_plain_names(t) for t in targets):
                return False
        elif isinstance(node, (ast.For, ast.comprehension, ast.With, ast.NamedExpr)):
            targets = [node.target] if not isinstance(node, ast.With) else [
                i.optional_vars for i in node.items if i.optional_vars is not None]
            if not all(_plain_names(t) for t in targets):
                return False
        elif isinstance(node, ast.Call) and not _pure_call(node.func, own):
            return False
        elif isinstance(node, ast.Attribute) and (node.attr in _MUTATORS or node.attr.startswith("__")):
            return False
        elif isinstance(node, ast.Name) and node.id in _BLOCKED_NAMES:
            return False
    return True


_SCALARS = (int, float, complex, str, bytes)  # bool is an int: type() keeps it out


def _scalar_names(tree):
    """Names whose every binding anywhere in the check is `name = <number or string literal>` (or
    an augmented assignment to it): they only ever hold immutable scalars. A name bound any other
    way - a parameter, a loop or `with` target, an import, a walrus, a tuple target - is not."""
    literal, other, seen = set(), set(), set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name) \
                and isinstance(node.value, ast.Constant) and type(node.value.value) in _SCALARS:
            literal.add(node.targets[0].id)
            seen.add(id(node.targets[0]))
        elif isinstance(node, ast.AugAssign) and isinstance(node.target, ast.Name):
            seen.add(id(node.target))
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)) and id(node) not in seen:
            other.add(node.id)
        elif isinstance(node, ast.arg):
            other.add(node.arg)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            other.update((a.asname or a.name).split(".")[0] for a in node.names)
        elif isinstance(node, (ast.FunctionDef, ast.ExceptHandler)) and getattr(node, "name", None):
            other.add(node.name)
    return literal - other


def _plain_names(target):
    if isinstance(target, ast.Name):
        return True
    if isinstance(target, (ast.Tuple, ast.List)):
        return all(_plain_names(e) for e in target.elts)
    if isinstance(target, ast.Starred):
        return _plain_names(target.value)
    return False


def _pure_call(func, own):
    if isinstance(func, ast.Name):
        return func.id in _PURE_NAMES or func.id in own
    if isinstance(func, ast.Attribute):
        return func.attr in _PURE_METHODS
    return False
