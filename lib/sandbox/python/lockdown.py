"""Python-level lockdown, imported once before any untrusted code runs (all backends).

Two jobs:
1. Clean errors for what environments must not use (subprocesses, sockets, ctypes, tracing...).
2. On Pyodide, cut Python off from the JavaScript realm: the FFI modules (`_pyodide_core`, `js`,
   `pyodide_js`, `pyodide.*`, `_pyodide.*`) are emptied in place, including the copy CPython keeps
   to re-create a builtin module, so no import route, object-graph walk or `_imp.create_builtin`
   finds `to_js`, `create_proxy` or a JsProxy to start from.

Everything the audit hook uses is bound when it is installed (default arguments and str methods),
never looked up in `builtins` at check time: replacing `builtins.any` & co. cannot switch it off.
It is not the only boundary: the frozen JS realm, the separate permission-limited host process with
no network, and the bubblewrap jail stand behind it. See docs/sandbox.md.
"""


def _install():
    import gc
    import os
    import sys

    blocked_modules = frozenset((
        "js", "pyodide_js", "pyodide", "_pyodide", "_pyodide_core", "ctypes", "_ctypes",
        "subprocess", "_posixsubprocess", "multiprocessing", "_multiprocessing", "ssl", "_ssl",
        "urllib.request", "http.client", "ftplib", "smtplib", "webbrowser", "micropip", "pyodide_http",
    ))
    blocked_prefixes = tuple(m + "." for m in blocked_modules)
    events = ("os.system", "os.exec", "os.posix_spawn", "os.spawn", "os.fork", "os.forkpty",
              "os.kill", "os.killpg", "subprocess.Popen", "ctypes.", "socket.", "gc.get_",
              "sys._current_frames", "sys.setprofile", "sys.settrace", "sys.addaudithook",
              "cpython.remote_debugger_script", "pty.spawn", "cpython._PySys_ClearAuditHooks",
              "sys._getframe")  # sys._getframe and sys._getframemodulename
    # A frame leads up the stack to the harness's frames and their locals (the episodes an
    # interpreter hosts), so no user code may hold one: these are every way Python hands one out.
    frame_attributes = frozenset(("tb_frame", "gi_frame", "cr_frame", "ag_frame"))

    create_module, install_creators = _module_creators(sys, blocked_modules)

    def hook(event, args, _mods=blocked_modules, _prefixes=blocked_prefixes, _events=events,
             _PE=PermissionError, _str=str, _startswith=str.startswith, _type=type, _create=create_module,
             _frames=frame_attributes):
        if event == "object.__getattr__":
            if args[1] in _frames:
                raise _PE(f"sandbox: reading {args[1]} is not allowed (frames lead to the harness)")
        elif event == "import":
            name = args[0]
            if _type(name) is not _str:
                raise _PE("sandbox: import of a non-string name is not allowed")
            if name in _mods or _startswith(name, _prefixes):
                raise _PE(f"sandbox: import of {name!r} is not allowed")
        elif event == "envstudio.create_module":
            _create(args)
        elif _startswith(event, _events):
            raise _PE(f"sandbox: {event} is not allowed")

    ffi_names = [name for name in sys.modules
                 if name in blocked_modules or name.startswith(blocked_prefixes)]
    ffi_modules = [sys.modules[name] for name in ffi_names]
    for name in ffi_names:
        del sys.modules[name]
    _empty_ffi(gc, sys, ffi_modules)
    sys.meta_path[:] = [f for f in sys.meta_path if "Js" not in type(f).__name__]
    sys.path_importer_cache.clear()
    for name in ("system", "popen", "fork", "forkpty", "kill", "killpg", "posix_spawn", "posix_spawnp",
                 "execv", "execve", "execl", "execle", "execlp", "execlpe", "execvp", "execvpe",
                 "spawnl", "spawnle", "spawnlp", "spawnlpe", "spawnv", "spawnve", "spawnvp", "spawnvpe"):
        try:
            delattr(os, name)
        except AttributeError:
            pass
    os.environ.clear()
    os.environ.update({"HOME": "/home/sandbox", "LANG": "C.UTF-8", "PATH": "/"})
    # Raising the limit lets recursion overflow the C (or wasm) stack, which kills the runtime
    # instead of raising RecursionError.
    sys.setrecursionlimit(min(sys.getrecursionlimit(), 1000))
    sys.setrecursionlimit = lambda limit: None
    if sys.platform == "emscripten":
        import time
        # Pyodide's time.sleep goes through the event loop's FFI helpers, emptied above (it raised
        # NameError: can_run_sync); generated environments do sleep to simulate latency.
        time.sleep = _make_sleep(time.monotonic)
    import logging
    logging._srcfile = None  # logging finds its caller through sys._getframe unless this is unset
    # The stdlib asks for its caller's frame to name modules (namedtuple, enum, typing) and falls
    # back when there is none (ValueError: "call stack is not deep enough"); the hook below also
    # refuses the originals, wherever a reference to them survived.
    sys._getframe = _no_frame
    if hasattr(sys, "_getframemodulename"):
        sys._getframemodulename = _no_frame
    sys.addaudithook(hook)  # cannot be removed from Python
    install_creators()  # only now: they need the hook to create anything


def _module_creators(sys, blocked):
    """`_imp.create_builtin` and `_imp.create_dynamic` make a module from a spec without an
    "import" audit event, so a blocked module could be had under any name (a builtin re-created
    from its spec, an extension loaded as `x._ctypes`). They are replaced by functions that ask
    the audit hook, which alone holds the originals: nothing user code can reach refers to them.
    Returns the hook's half: it refuses a blocked module by its name, its last dotted part or
    its file, and otherwise creates the module into the request's box."""
    import _imp
    from importlib.machinery import ModuleSpec
    originals = {"builtin": _imp.create_builtin, "dynamic": _imp.create_dynamic}

    def create(args, _originals=originals, _blocked=blocked, _spec=ModuleSpec, _PE=PermissionError,
               _type=type, _str=str, _list=list, _len=len):
        box = args[0] if _len(args) == 1 else None
        if _type(box) is not _list or _len(box) not in (2, 3) or box[0] not in _originals:
            raise _PE("sandbox: malformed module creation request")
        spec = box[1]
        if _type(spec) is not _spec or _type(spec.name) is not _str:
            raise _PE("sandbox: modules are created from plain ModuleSpecs only")
        origin = spec.origin if _type(spec.origin) is _str else ""
        stem = origin.rsplit("/", 1)[-1].split(".", 1)[0]
        if spec.name in _blocked or spec.name.rsplit(".", 1)[-1] in _blocked or stem in _blocked or spec.name == "_imp":
            raise _PE(f"sandbox: creating module {spec.name!r} is not allowed")
        box.append(_originals[box[0]](*box[1:]))

    def create_builtin(spec, _audit=sys.audit):
        box = ["builtin", spec]
        _audit("envstudio.create_module", box)
        return box[-1]

    def create_dynamic(spec, file=None, _audit=sys.audit):
        box = ["dynamic", spec] if file is None else ["dynamic", spec, file]
        _audit("envstudio.create_module", box)
        return box[-1]

    def install():
        _imp.create_builtin, _imp.create_dynamic = create_builtin, create_dynamic

    return create, install


def _no_frame(*args, **kwargs):
    raise ValueError("call stack is not deep enough")


def _make_sleep(monotonic):
    def sleep(seconds):
        """Waits `seconds` in a loop, which the call's deadline interrupts like any other code."""
        if not isinstance(seconds, (int, float)):
            raise TypeError(f"'{type(seconds).__name__}' object cannot be interpreted as an integer")
        if seconds != seconds:
            raise ValueError("Invalid value NaN (not a number)")
        if seconds < 0:
            raise ValueError("sleep length must be non-negative")
        end = monotonic() + seconds
        while monotonic() < end:
            pass

    return sleep


def _empty_ffi(gc, sys, modules):
    """Empties every FFI module's namespace, and every dict that mirrors one: CPython keeps a copy
    of a single-phase builtin module's dict (`m_copy`) and `_imp.create_builtin` rebuilds the
    module from it, which would hand `to_js` back to anyone who asks. Harness and lockdown never
    use the FFI after this point; the JS side calls `handle` through C, not through these modules."""
    targets = []
    for module in modules:
        namespace = getattr(module, "__dict__", None)
        if not isinstance(namespace, dict):
            continue
        targets.append(namespace)
        if namespace.get("__name__") not in sys.builtin_module_names:
            continue  # only builtin (C) modules have a saved copy
        members = [v for k, v in namespace.items() if not k.startswith("__")]
        for holder in gc.get_referrers(*members) if members else ():
            if isinstance(holder, dict) and holder is not namespace and _mirrors(holder, namespace):
                targets.append(holder)
    for namespace in targets:
        keep = {k: namespace[k] for k in ("__name__", "__doc__") if k in namespace}
        namespace.clear()
        namespace.update(keep)
    gc.collect()


def _mirrors(candidate, namespace):
    """A dict holding the same objects under the same names as a module namespace (its copy)."""
    names = [k for k in candidate if type(k) is not str or not k.startswith("__")]
    return len(names) >= 3 and all(k in namespace and candidate[k] is namespace[k] for k in names)


_install()
del _install, _empty_ffi, _mirrors, _make_sleep, _module_creators, _no_frame
