"""Check functions (`def check_func(final_state): ...`), EnvScaler style: `initial_state` is a
global of the check's namespace, the final state is the argument, the result must be a bool.

No check may change another's verdict:
- A check that may mutate gets its own copies of the states, made from a serialization taken
  before any check of the call runs; checks that provably only read (readonly.py) share one view.
- The copies are made by the harness's private JSON (privatejson.py), bound before any user code:
  a check that replaces `json.loads`, `json.JSONDecoder` or a builtin cannot forge the next
  check's "fresh copy".
- After a check that is not provably read-only, what it could have changed interpreter-wide is put
  back: the builtins, every module's namespace and the module table (compared by identity, so no
  user `__eq__` runs). The cyclic collector is paused while such checks run, so a finalizer a check
  left behind cannot run in the middle of a later one; it runs in the collection at the end of the
  call, after which the interpreter is put back once more.
"""
import gc
import sys

from privatejson import dumps as _text
from privatejson import loads as _parse
from readonly import reads_only
# Bound here, before any user code: user code may replace the builtins module's entries later.
from builtins import (
    BaseException, KeyboardInterrupt, MemoryError, SyntaxError, all, bool, callable, compile, dict,
    exec, getattr, isinstance, len, list, range, str, type, zip,
)  # noqa: A004

_CODE_CACHE = {}
_CODE_CACHE_SIZE = 256


def _compiled(source):
    """Validators run the same checks over many scenarios; compiling is the costly part (in wasm
    most of all). Code objects are immutable, so caching them cannot leak state between runs."""
    code = _CODE_CACHE.get(source)
    if code is None:
        code = compile(source, "<check>", "exec")
        if len(_CODE_CACHE) >= _CODE_CACHE_SIZE:
            _CODE_CACHE.clear()
        _CODE_CACHE[source] = code
    return code


def run_checks(sources, initial, final, capture, owned=False):
    """Runs each check over its own view of the states. Checks that provably only read share one
    view: the states themselves when the caller `owned` them (parsed from this very request, held
    by nobody else), else one copy. Every other check gets fresh copies, and the interpreter-wide
    state it could have changed is restored after it."""
    pure = [isinstance(src, str) and reads_only(src) for src in sources]
    texts = None if all(pure) else (_text(initial), _text(final))  # before any check runs
    shared = [(initial, final)] if owned else []

    def shared_view():
        if not shared:
            shared.append((_parse(_text(initial)), _parse(_text(final))))
        return shared[0]

    def fresh():
        return _parse(texts[0]), _parse(texts[1])

    guard = None if all(pure) else _Interpreter()
    # One capture for the call's checks (what they print is discarded; building two logs per check
    # was ~10 % of a batch): each check still starts writing to it, whatever an earlier one set.
    results = []
    collecting = gc.isenabled()
    if guard:
        gc.disable()
    try:
        with capture() as logs:
            for src, is_pure in zip(sources, pure):
                if is_pure:
                    results.append(_run_one(src, shared_view, logs))
                    continue
                try:
                    results.append(_run_one(src, fresh, logs))
                finally:
                    guard.restore()
    finally:
        if guard:
            gc.collect()  # finalizers the checks left run now, and what they change is put back
            guard.restore()
            if collecting:
                gc.enable()
    return results


def _run_one(source, states, logs):
    if not isinstance(source, str):
        return {"error": "check must be Python source text"}
    try:
        code = _compiled(source)
    except SyntaxError as e:
        return {"error": f"SyntaxError at line {e.lineno}: {e.msg}"}
    initial, final = states()
    namespace = {"__name__": "check", "initial_state": initial}
    sys.stdout, sys.stderr = logs.out, logs.err
    try:
        exec(code, namespace)
        func = namespace.get("check_func")
        if not callable(func):
            return {"error": "the check does not define check_func(final_state)"}
        result = func(final)
    except (KeyboardInterrupt, MemoryError):
        raise
    except BaseException as e:
        if type(e).__name__ == "Deadline":
            raise
        return {"error": f"{type(e).__name__}: {e}" if str(e) else type(e).__name__}
    if type(result) is not bool:
        return {"error": f"check_func must return a bool, got {type(result).__name__}"}
    return {"passed": result}


class _Interpreter:
    """What a check could change for every later check: the module table and each module's
    namespace (builtins and sys included). Taken before the first such check of a call."""

    __slots__ = ("modules", "namespaces")

    def __init__(self, _sys=sys, _dict=dict, _list=list):
        self.modules = _dict(_sys.modules)
        self.namespaces = [(m.__dict__, _list(m.__dict__.items())) for m in self.modules.values()
                           if isinstance(getattr(m, "__dict__", None), dict)]

    def restore(self, _sys=sys, _list=list):
        """Puts back whatever changed, until a full pass finds nothing to put back (dropping what a
        check added can run its finalizer, which could change something again). Gives up after a
        few passes, as MemoryError: the one error that discards the worker whatever the caller."""
        for _ in range(4):
            changed = False
            if not _same(_list(_sys.modules.items()), _list(self.modules.items())):
                _sys.modules.clear()
                _sys.modules.update(self.modules)
                changed = True
            for namespace, items in self.namespaces:
                if not _same(_list(namespace.items()), items):
                    namespace.clear()
                    namespace.update(items)
                    changed = True
            if not changed:
                return
        raise MemoryError("a check keeps changing the interpreter; its worker is discarded")


def _same(a, b, _len=len, _zip=zip):
    """Same items in the same order, by identity: compares no values, so no user code runs."""
    if _len(a) != _len(b):
        return False
    for (k1, v1), (k2, v2) in _zip(a, b):
        if k1 is not k2 or v1 is not v2:
            return False
    return True

