"""EnvStudio sandbox harness: one JSON request in, one JSON reply out.

Shared by every backend. Pyodide workers call `handle(request_json)` directly; the python3
backends (bubblewrap, and the unsandboxed benchmark baseline) run `serve()` over JSON lines.
Ops: load, unload, tools, step, state, diff, check, run_checks, analyze, configure, ping.
A worker holds one episode, or several of the same source when requests name theirs with
"episode" (worker sharing, shared-workers.ts): each has its own module and instance.
Replies: {"ok": true, ...} or {"ok": false, "error": {"code", "message"}}; the codes match
SandboxError in sandbox.schema.ts.
"""
import json
import sys
import types

from analyze import analyze
from capture import Capture
from checks import run_checks
from jsonstate import StateTracker, diff, dumps
from loadcache import cached, prepare

LIMITS = {"max_output_bytes": 4 * 1024 * 1024, "max_log_bytes": 64 * 1024}
_EMPTY_DIFF = {"added": [], "removed": [], "changed": []}
_episodes = {}  # episode id ("" when the request names none) -> its environment and tracker
_timer = {"enabled": False}  # set by serve(): SIGALRM deadlines exist only in real CPython
_REPLY_ENCODER = json.JSONEncoder(allow_nan=False, separators=(",", ":"))


class Fail(Exception):
    def __init__(self, code, message):
        super().__init__(message)
        self.code, self.message = code, message


class Deadline(BaseException):
    """Raised by the native deadline timer; Pyodide raises KeyboardInterrupt instead."""


def _describe(exc):
    return f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__


def _require(req, key, kind, default=None):
    value = req.get(key, default)
    if not isinstance(value, kind):
        raise Fail("INVALID_REQUEST", f"'{key}' must be {getattr(kind, '__name__', kind)}")
    return value


def _instantiate(cls, initial):
    """EnvScaler convention (cls({}) or cls(), then setattr per key) or `_load_scenario(state)`."""
    state = json.loads(json.dumps(initial))  # a private copy the environment may mutate
    if callable(getattr(cls, "_load_scenario", None)):
        try:
            env = cls()
        except TypeError:
            env = cls({})
        env._load_scenario(state)
        return env
    try:
        env = cls({})
    except TypeError:
        env = cls()
    for key, value in state.items():
        setattr(env, key, value)
    return env


def op_load(req):
    class_name = _require(req, "class_name", str)
    initial = _require(req, "initial_state", dict, {})
    source_key = req.get("source_key")
    if source_key is not None and not isinstance(source_key, str):
        raise Fail("INVALID_REQUEST", "'source_key' must be str")
    if "source" in req:
        prepared = prepare(_require(req, "source", str), class_name, _user_error, source_key)
    else:
        # The runner names the source by key and sends it only when this worker lacks it.
        prepared = cached(source_key, class_name) if source_key is not None else None
        if prepared is None:
            return {"need_source": True}
    key = _episode_key(req)
    if key:
        _episodes.pop(key, None)
    else:
        _episodes.clear()  # an unnamed load owns the worker: nothing else lives beside it
    # A fresh module per episode: the cached code object re-runs the module body, so class
    # attributes and module globals mutated by an earlier episode's tools start pristine.
    module = types.ModuleType("environment")
    sys.modules["environment"] = module  # dataclasses and typing look the module up by name
    with Capture():
        try:
            exec(prepared.code, module.__dict__)
            cls = module.__dict__.get(class_name)
            if not isinstance(cls, type):
                raise Fail("USER_CODE_ERROR", f"'{class_name}' is not a class")
            env = _instantiate(cls, initial)
        except (Fail, KeyboardInterrupt, Deadline, MemoryError):
            raise
        except BaseException as e:
            raise Fail("USER_CODE_ERROR", f"loading the environment failed: {_describe(e)}")
        if not prepared.preimported:
            _preimport(prepared.modules)
            prepared.preimported = True
    tools = {s["function"]["name"]: s for s in prepared.schemas if callable(getattr(env, s["function"]["name"], None))}
    tracker = StateTracker(env)
    _episodes[key] = {"env": env, "tools": tools, "validators": prepared.validators, "tracker": tracker,
                      "initial": tracker.values, "last": tracker.values}
    # Tools this instance shadows with a non-callable attribute (a state key named like a method).
    hidden = [s["function"]["name"] for s in prepared.schemas if s["function"]["name"] not in tools]
    if req.get("schemas", True) is False:
        return {"hidden": hidden}  # the runner holds the schemas: they depend on the source alone
    return {"tools": list(tools.values()), "hidden": hidden}


def op_unload(req):
    _episodes.pop(_episode_key(req), None)
    return {}


def _episode_key(req):
    return _require(req, "episode", str, "")


def _user_error(message):
    raise Fail("USER_CODE_ERROR", message)


def _preimport(names):
    """Imports, during the first load of a source, every module it names anywhere (also inside
    methods), so a tool's first call does not pay a one-time import against its step limit (in
    wasm a first import can take a second). Modules that fail or are not allowed are left to
    fail in the tool."""
    for name in names:
        try:
            __import__(name)
        except (KeyboardInterrupt, Deadline, MemoryError):
            raise
        except BaseException:
            pass


def _episode_or_fail(req):
    ep = _episodes.get(_episode_key(req))
    if ep is None:
        raise Fail("INVALID_REQUEST", "no environment is loaded")
    return ep


def _error_observation(kind, message):
    # Marked so that agents and reviewers can tell a sandbox-side failure from a tool's own reply.
    return {"success": False, "error": message, "error_type": kind}


def op_step(req):
    ep = _episode_or_fail(req)
    name = _require(req, "name", str)
    arguments = req.get("arguments", {})
    schema = ep["tools"].get(name)
    is_error, logs = True, None
    if schema is None:
        observation = _error_observation("unknown_tool", f"Unknown tool '{name}'. Available tools: {', '.join(sorted(ep['tools']))}")
    else:
        problems = ep["validators"][name](arguments)
        if problems:
            observation = _error_observation("invalid_arguments", f"Invalid arguments for '{name}': " + "; ".join(problems))
        else:
            observation, is_error, logs = _call_tool(ep["env"], name, arguments)
    if logs is None:
        return _step_reply(_REPLY_ENCODER.encode(observation), True, _EMPTY_DIFF, "", "")
    ep["last"], step_diff = ep["tracker"].snapshot()
    return _step_reply(observation, is_error, step_diff, logs.out.value(), logs.err.value())


def _step_reply(observation_text, is_error, step_diff, out, err):
    """The step reply as JSON text, with the observation spliced in as already encoded: a tool's
    result is serialized once, not serialized, parsed and serialized again."""
    encode = _REPLY_ENCODER.encode
    return ('{"ok":true,"observation":' + observation_text + ',"is_error":' + ("true" if is_error else "false")
            + ',"diff":' + encode(step_diff) + ',"stdout":' + encode(out) + ',"stderr":' + encode(err) + "}")


def _call_tool(env, name, arguments):
    with Capture() as logs:
        try:
            result = getattr(env, name)(**arguments)
        except (KeyboardInterrupt, Deadline, MemoryError):
            raise
        except BaseException as e:  # SystemExit too: a tool must not end the episode
            return _REPLY_ENCODER.encode(_error_observation("exception", f"Tool '{name}' raised {_describe(e)}")), True, logs
    return dumps(result), False, logs


def op_tools(req):
    return {"tools": list(_episode_or_fail(req)["tools"].values())}


def _settled(req):
    """The episode with an exact current state: steps use the tracker's fast path, which can miss
    a swap between equal values of different JSON types (see StateTracker)."""
    ep = _episode_or_fail(req)
    ep["last"], _ = ep["tracker"].snapshot(exact=True)
    return ep


def op_state(req):
    return {"state": _settled(req)["last"]}


def op_diff(req):
    ep = _settled(req)
    return {"diff": diff(ep["initial"], ep["last"])}


def op_check(req):
    ep = _settled(req)
    checks = _require(req, "checks", list)
    return {"results": run_checks(checks, ep["initial"], ep["last"], Capture)}


def op_run_checks(req):
    # The states were parsed from this request's JSON: plain JSON values that nobody else holds.
    return {"results": run_checks(_require(req, "checks", list), req.get("initial_state"), req.get("final_state"),
                                  Capture, owned=True)}


def op_run_checks_batch(req):
    """One call for the same checks over many state pairs: the per-call cost (a round trip, and
    parsing the check sources) is paid once, not once per scenario."""
    checks = _require(req, "checks", list)
    results = []
    for case in _require(req, "cases", list):
        if not isinstance(case, dict):
            raise Fail("INVALID_REQUEST", "each case must be an object with initial_state and final_state")
        results.append(run_checks(checks, case.get("initial_state"), case.get("final_state"), Capture, owned=True))
    return {"results": results}


def op_analyze(req):
    return analyze(_require(req, "source", str), _require(req, "class_name", str))


def op_configure(req):
    for key in LIMITS:
        value = req.get(key)
        if isinstance(value, int) and value > 0:
            LIMITS[key] = value
    Capture.cap = LIMITS["max_log_bytes"]
    return {}


_OPS = {"load": op_load, "unload": op_unload, "tools": op_tools, "step": op_step, "state": op_state, "diff": op_diff,
        "check": op_check, "run_checks": op_run_checks,
        "run_checks_batch": op_run_checks_batch, "analyze": op_analyze,
        "configure": op_configure, "ping": lambda req: {}}


def _error(code, message):
    return json.dumps({"ok": False, "error": {"code": code, "message": str(message)[:2000]}})


def _encode(payload):
    text = payload if type(payload) is str else _REPLY_ENCODER.encode({"ok": True, **payload})
    if len(text) > LIMITS["max_output_bytes"]:  # ensure_ascii: characters == bytes
        return _error("OUTPUT_TOO_LARGE", f"reply of {len(text)} bytes exceeds the {LIMITS['max_output_bytes']} byte limit")
    return text


def request_reader(path):
    """Pyodide: a reader of requests the worker leaves in a MEMFS file, opened before any user code
    runs. Converting a large JS string into Python cost ~7 ms per 740 KB; read as bytes, the
    request costs a copy, and json.loads takes bytes as they are. What it calls is bound now, so
    user code that replaces os functions or `handle` later does not see or change the requests."""
    import os
    fd, lseek, read, answer = os.open(path, os.O_RDONLY), os.lseek, os.read, handle

    def handle_request_file(size):
        lseek(fd, 0, 0)
        parts, left = [], size
        while left > 0:
            part = read(fd, left)
            if not part:
                break
            parts.append(part)
            left -= len(part)
        return answer(b"".join(parts))

    return handle_request_file


def install_lockdown():
    """Pyodide: called from JS through the FFI's C path, not through `runPython`, whose Python-level
    frames live in the modules the lockdown empties."""
    import lockdown  # noqa: F401


def handle(raw):
    try:
        try:
            req = json.loads(raw)
        except ValueError:
            return _error("INVALID_REQUEST", "request is not valid JSON")
        if not isinstance(req, dict) or req.get("op") not in _OPS:
            return _error("INVALID_REQUEST", f"unknown op {req.get('op') if isinstance(req, dict) else None!r}")
        with _deadline(req.get("timeout_ms")):
            payload = _OPS[req["op"]](req)
        return _encode(payload)
    except Fail as f:
        return _error(f.code, f.message)
    except (KeyboardInterrupt, Deadline):
        return _error("TIMEOUT", "time limit exceeded")
    except MemoryError:
        return _error("MEMORY", "memory limit exceeded")
    except RecursionError as e:
        return _error("USER_CODE_ERROR", _describe(e))
    except BaseException as e:
        return _error("USER_CODE_ERROR", _describe(e))


class _deadline:
    """Native only: SIGALRM at the deadline, then every 5 ms until the op returns (a user loop
    may swallow one; the host kills the process after a grace period if it swallows them all)."""

    def __init__(self, timeout_ms):
        self.seconds = timeout_ms / 1000 if _timer["enabled"] and isinstance(timeout_ms, (int, float)) and timeout_ms > 0 else 0

    def __enter__(self):
        if self.seconds:
            _timer["signal"].setitimer(_timer["signal"].ITIMER_REAL, self.seconds, 0.005)

    def __exit__(self, *exc):
        if self.seconds:
            _timer["signal"].setitimer(_timer["signal"].ITIMER_REAL, 0)
        return False


def _on_alarm(signum, frame):
    raise Deadline()


def serve(jail=False):
    """Tagged JSON lines over stdio. User code must not be able to write into the reply stream or
    read the request stream, so the protocol gets private duplicates of fds 0 and 1, which
    themselves point at /dev/null; as user code can still find the duplicates, each reply also
    carries its request's random tag. `jail`: this process may start no other process (noproc)."""
    import os
    import signal
    if jail:
        import noproc
        noproc.install()  # raises when it cannot: then no untrusted code runs here
        del sys.modules["noproc"]
    reply_fd, request_fd = os.dup(1), os.dup(0)
    os.dup2(os.open(os.devnull, os.O_WRONLY), 1)
    os.dup2(os.open(os.devnull, os.O_RDONLY), 0)  # input() sees EOF, never a protocol line
    sys.stdin = open(os.devnull)
    out = os.fdopen(reply_fd, "w", encoding="utf-8", newline="\n")
    requests = os.fdopen(request_fd, "rb")
    _timer.update(enabled=True, signal=signal)
    signal.signal(signal.SIGALRM, _on_alarm)
    import lockdown  # noqa: F401  (installs the audit hook; after our own imports on purpose)
    read = requests.readline
    while True:
        line = read()
        if not line:
            return
        # `<tag> <request JSON>`: the reply carries the tag, so a line that user code writes on a
        # protocol fd it found (os.write(3, ...)) is not taken for the reply.
        tag, _, request = line.partition(b" ")
        if request.strip():
            out.write(tag.decode("ascii", "replace") + " " + handle(request) + "\n")
            out.flush()


if __name__ == "__main__" and "--serve" in sys.argv:
    serve()
