"""Check functions (`def check_func(final_state): ...`), EnvScaler style: `initial_state` is a
global of the check's namespace, the final state is the argument, the result must be a bool."""
import json

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


def run_checks(sources, initial, final, capture):
    initial_json, final_json = json.dumps(initial), json.dumps(final)
    fresh = lambda: (json.loads(initial_json), json.loads(final_json))  # noqa: E731
    shared = []

    def shared_copy():
        # One copy for every check that provably only reads (readonly.py): the verdicts are the
        # ones fresh copies would give, without parsing the states once per check.
        if not shared:
            shared.append(fresh())
        return shared[0]

    return [_run_one(src, shared_copy if isinstance(src, str) and reads_only(src) else fresh, capture)
            for src in sources]


def _run_one(source, states, capture):
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
    with capture():
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
