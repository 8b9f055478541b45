"""Bounded capture of what user code prints (stdout/stderr), per call."""
import sys
# Bound here, before any user code: user code may replace the builtins module's entries later.
from builtins import len, max, str  # noqa: A004


class BoundedLog:
    """A stdout/stderr stand-in that keeps at most `cap` characters."""

    def __init__(self, cap):
        self.cap, self.parts, self.size, self.truncated = cap, [], 0, False

    def write(self, text):
        text = str(text)
        room = self.cap - self.size
        if len(text) > room:
            text, self.truncated = text[:max(room, 0)], True
        if text:
            self.parts.append(text)
            self.size += len(text)
        return len(text)

    def flush(self):
        pass

    def isatty(self):
        return False

    def value(self):
        return "".join(self.parts) + ("\n[output truncated]" if self.truncated else "")


class Capture:
    """Redirects sys.stdout/sys.stderr for one call. `cap` is set by the harness's configure op."""

    cap = 64 * 1024

    def __enter__(self):
        self.saved = sys.stdout, sys.stderr
        self.out, self.err = BoundedLog(self.cap), BoundedLog(self.cap)
        sys.stdout, sys.stderr = self.out, self.err
        return self

    def __exit__(self, *exc):
        sys.stdout, sys.stderr = self.saved
        return False
