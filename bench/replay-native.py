"""BENCH ONLY: the native baseline of `npm run bench -- replay`. Runs a batch of episodes in this one
python3 process, as a trainer would run the classes directly: each source compiled once, every
episode in a fresh module and instance (so class attributes and globals start pristine, as in the
sandbox), its tool calls, its final state as JSON, and its checks. Prints {"passed", "failed"}.
Usage: python3 replay-native.py episodes.json
"""
import copy
import json
import os
import sys
import types

# The harness's own instantiation (both EnvScaler conventions), so both sides build the same state.
sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib", "sandbox", "python"))
from harness import _instantiate as instantiate  # noqa: E402


def public_state(env):
    return json.loads(json.dumps({k: v for k, v in vars(env).items() if not k.startswith("_")}, default=str))


def run_check(source, initial, final):
    namespace = {"__name__": "check", "initial_state": copy.deepcopy(initial)}
    exec(compile(source, "<check>", "exec"), namespace)
    return namespace["check_func"](copy.deepcopy(final)) is True


def main(path):
    episodes = json.load(open(path))
    compiled = {}
    passed = failed = 0
    for ep in episodes:
        code = compiled.get(ep["source"])
        if code is None:
            code = compiled[ep["source"]] = compile(ep["source"], "environment.py", "exec")
        module = types.ModuleType("environment")
        sys.modules["environment"] = module
        exec(code, module.__dict__)
        env = instantiate(module.__dict__[ep["class_name"]], ep["init"])
        initial = public_state(env)
        for call in ep["calls"]:
            try:
                json.dumps(getattr(env, call["name"])(**call["arguments"]), default=str)
            except Exception as e:  # a tool's exception is its observation, as in the sandbox
                json.dumps({"success": False, "error": str(e)})
        final = public_state(env)
        if all(run_check(c, initial, final) for c in ep["checks"]):
            passed += 1
        else:
            failed += 1
    print(json.dumps({"passed": passed, "failed": failed}))


if __name__ == "__main__":
    main(sys.argv[1])
