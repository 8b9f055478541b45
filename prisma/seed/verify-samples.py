"""Test-only driver that replays a sample environment natively (no sandbox).

Reads one JSON request on stdin:
    {"source": str, "class_name": str, "scenarios": [scenario, ...]}
and writes one JSON report on stdout. It mirrors EnvScaler's runtime (spec §5.4, §6.2):
exec the module, instantiate with cls(init_config) (falling back to cls() on TypeError),
setattr every init_config key, snapshot the state (non-dunder attributes), replay the
gold calls, then run each check_func on the initial and the final state with
`initial_state` as a global. Production code uses lib/sandbox instead.
"""
import copy
import inspect
import json
import sys
import types


def snapshot(instance):
    # JSON round-trip: TypedDicts become plain dicts, tuples lists, as in a stored state.
    state = {k: v for k, v in vars(instance).items() if not k.startswith("__")}
    return json.loads(json.dumps(copy.deepcopy(state), default=repr))


def instantiate(cls, init_config):
    config = copy.deepcopy(init_config)
    try:
        instance = cls(copy.deepcopy(config)) if config else cls({})
    except TypeError:
        instance = cls()
    for key, value in config.items():
        setattr(instance, key, copy.deepcopy(value))
    return instance


def run_check(source, initial_state, state):
    scope = {"__builtins__": __builtins__, "initial_state": copy.deepcopy(initial_state)}
    try:
        exec(source, scope)
        func = scope.get("check_func")
        if not callable(func):
            return None, "check_func not defined"
        value = func(copy.deepcopy(state))
    except Exception as exc:  # a crashing check is a finding, not a driver failure
        return None, f"{type(exc).__name__}: {exc}"
    if not isinstance(value, bool):
        return None, f"returned {type(value).__name__}, not bool"
    return value, None


def run_scenario(cls, scenario):
    report = {"task_id": scenario.get("task_id"), "error": None, "calls": [], "checks": []}
    try:
        instance = instantiate(cls, scenario.get("init_config") or {})
    except Exception as exc:
        report["error"] = f"instantiation failed: {type(exc).__name__}: {exc}"
        return report
    initial_state = snapshot(instance)

    for call in scenario.get("gold_calls", []):
        name, arguments = call.get("name"), call.get("arguments") or {}
        entry = {"name": name, "arguments": arguments, "result": None, "error": None}
        method = getattr(instance, name, None)
        if name.startswith("_") or not callable(method):
            entry["error"] = f"no public tool named {name}"
        else:
            try:
                entry["result"] = json.loads(json.dumps(method(**arguments), default=repr))
            except Exception as exc:
                entry["error"] = f"{type(exc).__name__}: {exc}"
        report["calls"].append(entry)
    final_state = snapshot(instance)

    for item in scenario.get("checklist_with_func", []):
        source = item.get("check_func", "")
        on_initial, initial_error = run_check(source, initial_state, initial_state)
        on_final, final_error = run_check(source, initial_state, final_state)
        report["checks"].append(
            {
                "check_item": item.get("check_item"),
                "initial": on_initial,
                "initial_error": initial_error,
                "final": on_final,
                "final_error": final_error,
            }
        )
    return report


def main():
    request = json.load(sys.stdin)
    module = types.ModuleType("sample_env")
    exec(compile(request["source"], "environment.py", "exec"), module.__dict__)
    cls = getattr(module, request["class_name"], None)
    if not inspect.isclass(cls):
        print(json.dumps({"error": f"class {request['class_name']} not found"}))
        return
    public = [
        name
        for name, value in vars(cls).items()
        if callable(value) and not name.startswith("_")
    ]
    coroutines = [name for name in public if inspect.iscoroutinefunction(getattr(cls, name))]
    # State attributes the class declares on its own; init_config keys outside this set would be
    # silently attached by EnvScaler's setattr loop, which usually means a typo in the scenario.
    try:
        declared = sorted(k for k in vars(instantiate(cls, {})) if not k.startswith("_"))
    except Exception as exc:
        print(json.dumps({"error": f"cls({{}}) failed: {type(exc).__name__}: {exc}"}))
        return
    print(
        json.dumps(
            {
                "error": None,
                "public_methods": public,
                "async_methods": coroutines,
                "declared_attributes": declared,
                "scenarios": [run_scenario(cls, s) for s in request.get("scenarios", [])],
            }
        )
    )


if __name__ == "__main__":
    main()
