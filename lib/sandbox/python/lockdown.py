"""Python-level lockdown, imported once before any untrusted code runs (all backends).

A usability layer with clean errors, NOT the security boundary: a determined script can walk the
object graph around it. The boundaries are the scrubbed JS realm + separate, permission-limited
host process (Pyodide) and the Linux namespaces (bubblewrap). See docs/sandbox.md.
"""


def _install():
    import os
    import sys

    mods = ("js", "pyodide_js", "pyodide", "_pyodide", "_pyodide_core", "ctypes", "_ctypes",
            "subprocess", "_posixsubprocess", "multiprocessing", "_multiprocessing", "ssl", "_ssl",
            "urllib.request", "http.client", "ftplib", "smtplib", "webbrowser", "micropip")
    events = ("os.system", "os.exec", "os.posix_spawn", "os.spawn", "os.fork", "os.forkpty",
              "os.kill", "os.killpg", "subprocess.Popen", "ctypes.", "socket.", "gc.get_",
              "sys._current_frames", "sys.setprofile", "sys.settrace",
              "sys.addaudithook", "cpython.remote_debugger_script", "pty.spawn")

    def blocked(name):
        return any(name == m or name.startswith(m + ".") for m in mods)

    def hook(event, args, _blocked=blocked, _events=events, _PE=PermissionError):
        if event == "import":
            if _blocked(args[0]):
                raise _PE(f"sandbox: import of {args[0]!r} is not allowed")
        elif event.startswith(_events):
            raise _PE(f"sandbox: {event} is not allowed")

    for name in list(sys.modules):
        if blocked(name):
            del sys.modules[name]
    sys.meta_path[:] = [f for f in sys.meta_path if type(f).__name__ != "JsFinder"]
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
    sys.addaudithook(hook)  # cannot be removed from Python


_install()
del _install
