"""Check functions (`def check_func(final_state): ...`), EnvScaler style: `initial_state` is a
global of the check's namespace, the final state is the argument, the result must be a bool."""
import json


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
    return [_run_one(src, initial_json, final_json, capture) for src in sources]


def _run_one(source, initial_json, final_json, capture):
    if not isinstance(source, str):
        return {"error": "check must be Python source text"}
    # Fresh copies per check: one check mutating its state must not change another's verdict.
    namespace = {"__name__": "check", "initial_state": json.loads(initial_json)}
    try:
        code = _compiled(source)
    except SyntaxError as e:
        return {"error": f"SyntaxError at line {e.lineno}: {e.msg}"}
    with capture():
        try:
            exec(code, namespace)
            func = namespace.get("check_func")
            if not callable(func):
                return {"error": "the check does not define check_func(final_state)"}
            result = func(json.loads(final_json))
        except (KeyboardInterrupt, MemoryError):
            raise
        except BaseException as e:
            if type(e).__name__ == "Deadline":
                raise
            return {"error": f"{type(e).__name__}: {e}" if str(e) else type(e).__name__}
    if type(result) is not bool:
        return {"error": f"check_func must return a bool, got {type(result).__name__}"}
    return {"passed": result}
