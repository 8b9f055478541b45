"""BENCH ONLY: a native lane of `npm run bench -- replay`, running episodes as a trainer would run
the classes directly, in a warm python3 process. It parses the batch file once at start, prints
`ready`, then runs the episode whose index arrives on each stdin line and answers `1` (every check
passed) or `0` on its own line. Each source is compiled once per process; every episode runs in a
fresh module and instance (so class attributes and globals start pristine, as in the sandbox), then
its tool calls, its final state as JSON, and its checks.
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


def run_episode(ep, compiled):
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
    return all(run_check(c, initial, final) for c in ep["checks"])


def main(path):
    episodes = json.load(open(path))
    compiled = {}
    print("ready", flush=True)
    for line in sys.stdin:
        passed = run_episode(episodes[int(line)], compiled)
        sys.stdout.write("1\n" if passed else "0\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main(sys.argv[1])
