"""EnvStudio sandbox harness: one JSON request in, one JSON reply out.

Shared by every backend. Pyodide workers call the `handle` that `start()` returns; the python3
backends (bubblewrap, and the unsandboxed benchmark baseline) run `serve()` over JSON lines.
Ops: load, unload, tools, step, state, diff, states, run_checks, run_checks_batch, analyze,
splice, configure, ping.
A worker holds one episode, or several of the same source when requests name theirs with
"episode" (worker sharing, shared-workers.ts): each has its own module, instance and random state.
Replies: {"ok": true, ...} or {"ok": false, "error": {"code", "message"}}; the codes match
SandboxError in sandbox.schema.ts.

Out of user code's reach: the episodes live in the closure of the one `handle` (held by the
serve loop or by the JS worker), not in any module; once started, the harness's modules leave
sys.modules and their folder leaves sys.path (`seal`), and the lockdown refuses frames and gc
walks. Requests, replies and states go through the private C JSON (privatejson.py).
"""
import random
import sys
import types

from analyze import analyze
from capture import Capture
from checks import run_checks
from jsonstate import StateTracker, diff, dumps
from loadcache import cached, prepare
from splice import splice
from privatejson import dumps as _json_text
from privatejson import loads as _json_value
# Bound here, before any user code: user code may replace the builtins module's entries later.
from builtins import (
    BaseException, Exception, KeyboardInterrupt, MemoryError, RecursionError, TypeError,
    ValueError, callable, dict, exec, float, getattr, int, isinstance, len, list, open, setattr,
    sorted, str, super, type,
)  # noqa: A004

LIMITS = {"max_output_bytes": 4 * 1024 * 1024, "max_log_bytes": 64 * 1024}
_EMPTY_DIFF = {"added": [], "removed": [], "changed": []}
_timer = {"enabled": False}  # set by serve(): SIGALRM deadlines exist only in real CPython
_HARNESS_MODULES = ("harness", "analyze", "capture", "checks", "docstrings", "jsonstate", "loadcache",
                    "lockdown", "privatejson", "readonly", "splice", "toolschema", "validate")
# The interpreter's one `random` generator, as the module's functions use it, and the C methods
# that save and restore its state: each episode runs with its own (see _Entered).
_RANDOM = random._inst
_get_random, _set_random = type(_RANDOM).__mro__[1].getstate, type(_RANDOM).__mro__[1].setstate
_seed_random = type(_RANDOM).seed
_RANDOM_OWNER = [None]  # the episode whose random state the generator holds now


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
    state = _json_value(_json_text(initial))  # a private copy the environment may mutate
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


def op_load(req, episodes):
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
    seed = req.get("seed", 0)
    if type(seed) is not int:
        raise Fail("INVALID_REQUEST", "'seed' must be an integer")
    key = _episode_key(req)
    for gone in ([episodes.pop(key, None)] if key else list(episodes.values())):
        if gone is not None:
            _forget(gone)
    if not key:
        episodes.clear()  # an unnamed load owns the worker: nothing else lives beside it
    # A fresh module per episode: the cached code object re-runs the module body, so class
    # attributes and module globals mutated by an earlier episode's tools start pristine.
    module = types.ModuleType("environment")
    # Seeded before the module body runs, so module-level randomness is the episode's too.
    ep = {"module": module, "random": None}  # the generator's state while another episode holds it
    _take_seeded(ep, seed)
    with _Entered(ep), Capture():
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
    ep.update(env=env, tools=tools, validators=prepared.validators, tracker=tracker, initial=tracker.values,
              last=tracker.values)
    episodes[key] = ep
    # Tools this instance shadows with a non-callable attribute (a state key named like a method).
    hidden = [s["function"]["name"] for s in prepared.schemas if s["function"]["name"] not in tools]
    if req.get("schemas", True) is False:
        return {"hidden": hidden}  # the runner holds the schemas: they depend on the source alone
    return {"tools": list(tools.values()), "hidden": hidden}


def op_unload(req, episodes):
    ep = episodes.pop(_episode_key(req), None)
    if ep is not None:
        _forget(ep)
    return {}


def _take_seeded(ep, seed, _owner=_RANDOM_OWNER):
    """Gives the generator to a new episode, seeded: the previous owner's state is saved first."""
    previous = _owner[0]
    if previous is not None:
        previous["random"] = (_get_random(_RANDOM), _RANDOM.gauss_next)
    _seed_random(_RANDOM, seed)
    _owner[0] = ep


class _Entered:
    """While one episode runs: its module is `sys.modules["environment"]` (dataclasses, typing and
    pickle look it up by name; no other episode's module is there while it runs) and the
    interpreter's random generator holds its state. The generator changes hands only when another
    episode runs: the previous one's state is saved then, so an episode's draws depend on its own
    seed and calls alone, and a replay on a fresh worker reproduces them whatever its neighbours
    did. (Saving and restoring on every call cost ~100 us of a ~240 us step in wasm.)"""

    __slots__ = ("ep",)

    def __init__(self, ep):
        self.ep = ep

    def __enter__(self, _modules=sys.modules, _get=_get_random, _set=_set_random, _owner=_RANDOM_OWNER):
        ep = self.ep
        _modules["environment"] = ep["module"]
        previous = _owner[0]
        if previous is not ep:
            if previous is not None:
                previous["random"] = (_get(_RANDOM), _RANDOM.gauss_next)
            state, gauss = ep["random"]
            _set(_RANDOM, state)
            _RANDOM.gauss_next = gauss
            _owner[0] = ep

    def __exit__(self, *exc):
        return False


def _forget(ep, _modules=sys.modules, _owner=_RANDOM_OWNER):
    """An episode that leaves the worker leaves no trace of its module or generator ownership."""
    if _owner[0] is ep:
        _owner[0] = None
    if _modules.get("environment") is ep.get("module"):
        _modules.pop("environment", None)


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


def _episode_or_fail(req, episodes):
    ep = episodes.get(_episode_key(req))
    if ep is None:
        raise Fail("INVALID_REQUEST", "no environment is loaded")
    return ep


def _error_observation(kind, message):
    # Marked so that agents and reviewers can tell a sandbox-side failure from a tool's own reply.
    return {"success": False, "error": message, "error_type": kind}


def op_step(req, episodes):
    ep = _episode_or_fail(req, episodes)
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
            with _Entered(ep):
                observation, is_error, logs = _call_tool(ep["env"], name, arguments)
    if logs is None:
        return _step_reply(_json_text(observation), True, _EMPTY_DIFF, "", "")
    # `"diff": false`: the caller has no use for the step's diff (a trainer's episode), which costs
    # about a third of a step in wasm. The state, diff and states ops take an exact snapshot anyway.
    if req.get("diff", True) is False:
        return _step_reply(observation, is_error, None, logs.out.value(), logs.err.value())
    with _Entered(ep):  # serializing can run user code (__eq__, properties)
        ep["last"], step_diff = ep["tracker"].snapshot()
    return _step_reply(observation, is_error, step_diff, logs.out.value(), logs.err.value())


def _step_reply(observation_text, is_error, step_diff, out, err):
    """The step reply as JSON text, with the observation spliced in as already encoded: a tool's
    result is serialized once, not serialized, parsed and serialized again."""
    encode = _json_text
    return ('{"ok":true,"observation":' + observation_text + ',"is_error":' + ("true" if is_error else "false")
            + ',"diff":' + encode(step_diff) + ',"stdout":' + encode(out) + ',"stderr":' + encode(err) + "}")


def _call_tool(env, name, arguments):
    with Capture() as logs:
        try:
            result = getattr(env, name)(**arguments)
        except (KeyboardInterrupt, Deadline, MemoryError):
            raise
        except BaseException as e:  # SystemExit too: a tool must not end the episode
            return _json_text(_error_observation("exception", f"Tool '{name}' raised {_describe(e)}")), True, logs
    return dumps(result), False, logs


def op_tools(req, episodes):
    return {"tools": list(_episode_or_fail(req, episodes)["tools"].values())}


def _settled(req, episodes):
    """The episode with an exact current state: steps use the tracker's fast path, which can miss
    a swap between equal values of different JSON types (see StateTracker)."""
    ep = _episode_or_fail(req, episodes)
    with _Entered(ep):
        ep["last"], _ = ep["tracker"].snapshot(exact=True)
    return ep


def op_state(req, episodes):
    return {"state": _settled(req, episodes)["last"]}


def op_diff(req, episodes):
    ep = _settled(req, episodes)
    return {"diff": diff(ep["initial"], ep["last"])}


def op_states(req, episodes):
    """The states an episode's checks run over. The checks themselves never run here: in the
    environment's interpreter, its code could have replaced what they rely on."""
    ep = _settled(req, episodes)
    return {"initial": ep["initial"], "final": ep["last"]}


def op_run_checks(req, episodes):
    # The states were parsed from this request's JSON: plain JSON values that nobody else holds.
    return {"results": run_checks(_require(req, "checks", list), req.get("initial_state"), req.get("final_state"),
                                  Capture, owned=True)}


def op_run_checks_batch(req, episodes):
    """One call for the same checks over many state pairs: the per-call cost (a round trip, and
    parsing the check sources) is paid once, not once per scenario."""
    checks = _require(req, "checks", list)
    results = []
    for case in _require(req, "cases", list):
        if not isinstance(case, dict):
            raise Fail("INVALID_REQUEST", "each case must be an object with initial_state and final_state")
        results.append(run_checks(checks, case.get("initial_state"), case.get("final_state"), Capture, owned=True))
    return {"results": results}


def op_analyze(req, episodes):
    return analyze(_require(req, "source", str), _require(req, "class_name", str))


def op_splice(req, episodes):
    allowed = req.get("allowed")
    if allowed is not None and (not isinstance(allowed, list) or [a for a in allowed if not isinstance(a, str)]):
        raise Fail("INVALID_REQUEST", "allowed must be a list of names or null")
    class_name = req.get("class_name")
    if class_name is not None and not isinstance(class_name, str):
        raise Fail("INVALID_REQUEST", "class_name must be a string or null")
    return splice(_require(req, "source", str), _require(req, "patch", str), class_name, allowed)


def op_configure(req, episodes):
    for key in LIMITS:
        value = req.get(key)
        if isinstance(value, int) and value > 0:
            LIMITS[key] = value
    Capture.cap = LIMITS["max_log_bytes"]
    return {}


_OPS = {"load": op_load, "unload": op_unload, "tools": op_tools, "step": op_step, "state": op_state, "diff": op_diff,
        "states": op_states, "run_checks": op_run_checks,
        "run_checks_batch": op_run_checks_batch, "analyze": op_analyze, "splice": op_splice,
        "configure": op_configure, "ping": lambda req, episodes: {}}


def _error(code, message):
    return _json_text({"ok": False, "error": {"code": code, "message": str(message)[:2000]}})


def _encode(payload):
    text = payload if type(payload) is str else _json_text({"ok": True, **payload})
    if len(text) > LIMITS["max_output_bytes"]:  # ensure_ascii: characters == bytes
        return _error("OUTPUT_TOO_LARGE", f"reply of {len(text)} bytes exceeds the {LIMITS['max_output_bytes']} byte limit")
    return text


def request_reader(path, answer):
    """Pyodide: a reader of requests the worker leaves in a MEMFS file, opened before any user code
    runs. Converting a large JS string into Python cost ~7 ms per 740 KB; read as bytes, the
    request costs a copy, and the private JSON takes bytes as they are. What it calls is bound
    now, so user code that replaces os functions later does not see or change the requests."""
    import os
    fd, lseek, read = os.open(path, os.O_RDONLY), os.lseek, os.read

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
    frames live in the modules the lockdown empties. Seals the harness after."""
    import lockdown  # noqa: F401
    seal()


def make_handler():
    """The worker's one request handler. Its episodes live in this closure alone."""
    episodes = {}

    def handle(raw, _ops=_OPS, _loads=_json_value, _dict=dict, _str=str):
        try:
            try:
                req = _loads(raw)
            except ValueError:
                return _error("INVALID_REQUEST", "request is not valid JSON")
            op = req.get("op") if type(req) is _dict else None
            if type(op) is not _str or op not in _ops:
                return _error("INVALID_REQUEST", f"unknown op {op!r}")
            with _deadline(req.get("timeout_ms")):
                payload = _ops[op](req, episodes)
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

    return handle


def start(request_path):
    """Pyodide: the handler and the large-request reader (install_lockdown seals the harness)."""
    handle = make_handler()
    return handle, request_reader(request_path, handle)


def seal():
    """The harness's modules leave sys.modules and their folder leaves sys.path: user code cannot
    import them, or reach the live ones by name (their functions stay alive in the handler)."""
    for name in _HARNESS_MODULES:
        sys.modules.pop(name, None)
    here = __file__.rsplit("/", 1)[0] if "/" in __file__ else ""
    sys.path[:] = [p for p in sys.path if p != here]
    sys.path_importer_cache.clear()


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
    handle = make_handler()
    reply_fd, request_fd = os.dup(1), os.dup(0)
    os.dup2(os.open(os.devnull, os.O_WRONLY), 1)
    os.dup2(os.open(os.devnull, os.O_RDONLY), 0)  # input() sees EOF, never a protocol line
    sys.stdin = open(os.devnull)
    out = os.fdopen(reply_fd, "w", encoding="utf-8", newline="\n")
    requests = os.fdopen(request_fd, "rb")
    _timer.update(enabled=True, signal=signal)
    signal.signal(signal.SIGALRM, _on_alarm)
    import lockdown  # noqa: F401  (installs the audit hook; after our own imports on purpose)
    seal()
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
