"""Check functions (`def check_func(final_state): ...`), EnvScaler style: `initial_state` is a
global of the check's namespace, the final state is the argument, the result must be a bool."""
import json
import sys

from readonly import reads_only


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
    """Runs each check over its own view of the states. A check that may mutate gets fresh copies;
    checks that provably only read (readonly.py) share one copy - or, when the caller `owned` the
    states (parsed from this very request, held by nobody else), the states themselves: nothing
    mutates them then, so no copy is needed at all. The verdicts are those fresh copies would give."""
    texts = []

    def fresh():
        if not texts:  # serialized at most once, while the states are still pristine
            texts.append((json.dumps(initial), json.dumps(final)))
        return json.loads(texts[0][0]), json.loads(texts[0][1])

    shared = [(initial, final)] if owned else []

    def shared_view():
        if not shared:
            shared.append(fresh())
        return shared[0]

    # One capture for the call's checks (what they print is discarded; building two logs per check
    # was ~10 % of a batch): each check still starts writing to it, whatever an earlier one set.
    with capture() as logs:
        return [_run_one(src, shared_view if isinstance(src, str) and reads_only(src) else fresh, logs)
                for src in sources]


def _run_one(source, states, logs):
    if not isinstance(source, str):
        return {"error": "check must be Python source text"}
    try:
        code = _compiled(source)
    except SyntaxError as e:
        return {"error": f"SyntaxError at line {e.lineno}: {e.msg}"}
    initial, final = states()
    # Fresh copies per check unless it only reads: one check mutating its state must not change
    # another's verdict.
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
