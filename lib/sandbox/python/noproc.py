"""Kernel-level: a python3 sandbox process starts no other process and no thread (bwrap backend).

The lockdown refuses os.fork, subprocess and friends by name, but Python offers more doors than a
name list can close (a builtin module re-created under another spec, an extension loaded under an
alias). This seccomp filter closes them where they all end: fork, vfork, clone, execve and
execveat answer EPERM; clone3, whose flags a filter cannot read, answers ENOSYS. Threads are
refused too: a thread keeps running user code between calls (after a check, beside the next one),
where no deadline or reset reaches it; environments are synchronous, as on Pyodide, which has no
threads either. Any other architecture or syscall ABI (x32, i386 on x86_64) kills the process.
Installed once, before any untrusted code runs; it cannot be removed.
"""
import ctypes
import os
import struct

# struct seccomp_data: nr (u32 at 0), arch (u32 at 4), ip (u64 at 8), args[6] (u64 from 16).
_NR, _ARCH = 0, 4
_LD_ABS, _JEQ, _JGE, _RET = 0x20, 0x15, 0x35, 0x06
_ALLOW, _KILL_PROCESS = 0x7FFF0000, 0x80000000
_ERRNO = 0x00050000
_EPERM, _ENOSYS = 1, 38
_X32_BIT = 0x40000000
_PR_SET_NO_NEW_PRIVS, _PR_SET_SECCOMP, _SECCOMP_MODE_FILTER = 38, 22, 2

# arch -> (AUDIT_ARCH, syscalls refused with EPERM, clone3, has the x32 ABI)
_ARCHES = {
    "x86_64": (0xC000003E, (56, 57, 58, 59, 322), 435, True),  # clone fork vfork execve execveat
    "aarch64": (0xC00000B7, (220, 221, 281), 435, False),  # clone execve execveat (no fork/vfork)
}


def _program(arch, refused, clone3, x32):
    """The filter as (code, jt, jf, k) tuples. Written with labels; BPF jumps are forward offsets
    counted from the next instruction, resolved by `_assemble`."""
    code = [("ld", _ARCH), ("jeq", arch, None, "kill"), ("ld", _NR)]
    if x32:
        code.append(("jge", _X32_BIT, "kill", None))  # an x32 syscall number
    code += [("jeq", nr, "eperm", None) for nr in refused]
    code += [("jeq", clone3, "enosys", None),
             "allow", ("ret", _ALLOW), "eperm", ("ret", _ERRNO | _EPERM),
             "enosys", ("ret", _ERRNO | _ENOSYS), "kill", ("ret", _KILL_PROCESS)]
    return _assemble(code)


def _assemble(code):
    """Labels are strings between instructions; a jump target of None means the next one."""
    positions, index = {}, 0
    for item in code:
        if isinstance(item, str):
            positions[item] = index
        else:
            index += 1
    out = []
    for item in code:
        if isinstance(item, str):
            continue
        here = len(out)
        offset = lambda label: 0 if label is None else positions[label] - here - 1  # noqa: E731
        if item[0] == "ld":
            out.append((_LD_ABS, 0, 0, item[1]))
        elif item[0] == "ret":
            out.append((_RET, 0, 0, item[1]))
        else:
            op = {"jeq": _JEQ, "jge": _JGE}[item[0]]
            out.append((op, offset(item[2]), offset(item[3]), item[1]))
    return out


def install():
    """Installs the filter or raises OSError: the caller must not run untrusted code then."""
    machine = os.uname().machine
    if machine not in _ARCHES:
        raise OSError(f"no process filter for architecture {machine}")
    program = _program(*_ARCHES[machine])
    raw = b"".join(struct.pack("<HBBI", *ins) for ins in program)
    buffer = ctypes.create_string_buffer(raw, len(raw))

    class Fprog(ctypes.Structure):
        _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.c_void_p)]

    prog = Fprog(len(program), ctypes.addressof(buffer))
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(_PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0:
        raise OSError(ctypes.get_errno(), "prctl(PR_SET_NO_NEW_PRIVS) failed")
    if libc.prctl(_PR_SET_SECCOMP, _SECCOMP_MODE_FILTER, ctypes.byref(prog), 0, 0) != 0:
        raise OSError(ctypes.get_errno(), "prctl(PR_SET_SECCOMP) failed")
