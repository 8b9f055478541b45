/**
 * The escape battery's attempts (the routes of docs/sandbox.md's threat model plus resource abuse). Each
 * is a tool body; it returns ESCAPED-prefixed text only if the attempt got somewhere. Paths and
 * ports are substituted per run: MARKER (host file that must never appear), SECRET_FILE (host
 * file whose content must never be read), PORT (loopback listener that must get no connection).
 */
const WIN = "return 'ESC' + 'APED ' + str(";

export type Attack = { name: string; body: string };

export const STEP_ATTACKS: Attack[] = [
  { name: "js.process.env", body: `import js\n${WIN}dict(js.process.env))` },
  {
    name: "js child_process",
    body: `import js\ncp = js.process.getBuiltinModule('child_process')\n${WIN}cp.execSync('touch MARKER; echo hi', {'encoding': 'utf8'}))`,
  },
  { name: "js.Function", body: `import js\n${WIN}js.Function.new('return process.pid')())` },
  { name: "js.eval", body: `import js\n${WIN}js.eval('process.pid'))` },
  { name: "js.fetch", body: `import js\njs.fetch('http://127.0.0.1:PORT/fetch')\n${WIN}1)` },
  {
    name: "pyodide_js NODEFS mount",
    body: `import pyodide_js\nFS = pyodide_js.FS\nFS.mkdir('/host')\nFS.mount(FS.filesystems.NODEFS, {'root': '/'}, '/host')\n${WIN}open('/host' + 'SECRET_FILE').read())`,
  },
  {
    name: "pyodide_js.mountNodeFS",
    body: `import pyodide_js\npyodide_js.mountNodeFS('/h', '/tmp')\n${WIN}open('/h/' + 'SECRET_FILE'.split('/')[-1]).read())`,
  },
  {
    name: "pyodide.code.run_js",
    body: `from pyodide.code import run_js\n${WIN}run_js("require('fs').writeFileSync('MARKER', 'x'); process.pid"))`,
  },
  {
    name: "to_js constructor chain",
    body: `from pyodide.ffi import to_js\n${WIN}to_js({}).constructor.constructor('return process.cwd()')())`,
  },
  {
    name: "pyodide.http",
    body: `from pyodide.http import open_url\n${WIN}open_url('http://127.0.0.1:PORT/').read())`,
  },
  {
    name: "sys.modules pop + importlib",
    body: `import sys, importlib\nsys.modules.pop('js', None)\njs = importlib.import_module('js')\n${WIN}js.process.pid)`,
  },
  { name: "__import__ js", body: `js = __import__('js')\n${WIN}js.process.pid)` },
  { name: "import _pyodide_core", body: `import _pyodide_core\n${WIN}dir(_pyodide_core))` },
  {
    name: "os.system",
    body: `import os\nrc = os.system('touch MARKER')\nif rc == 0:\n    ${WIN}rc)\nreturn rc`,
  },
  {
    name: "posix.system",
    body: `import posix\nrc = posix.system('touch MARKER')\nif rc == 0:\n    ${WIN}rc)\nreturn rc`,
  },
  { name: "os.popen", body: `import os\n${WIN}os.popen('touch MARKER; echo hi').read())` },
  {
    name: "os.posix_spawn",
    body: `import os\n${WIN}os.posix_spawn('/usr/bin/touch', ['touch', 'MARKER'], {}))`,
  },
  {
    name: "os.fork",
    body: `import os\npid = os.fork()\nif pid == 0:\n    open('MARKER', 'w').write('x')\n    os._exit(0)\n${WIN}pid)`,
  },
  { name: "subprocess", body: `import subprocess\n${WIN}subprocess.run(['touch', 'MARKER']))` },
  {
    name: "ctypes emscripten_run_script",
    body: `import ctypes\n${WIN}ctypes.CDLL(None).emscripten_run_script_string(b"require('fs').writeFileSync('MARKER','x')"))`,
  },
  {
    name: "ctypes libc system",
    body: `import ctypes, ctypes.util\nlibc = ctypes.CDLL(ctypes.util.find_library('c'))\n${WIN}libc.system(b'touch MARKER'))`,
  },
  { name: "host file read", body: `${WIN}open('SECRET_FILE').read())` },
  {
    name: "host file read /etc/passwd",
    body: `text = open('/etc/passwd').read()\nif 'root:' in text:\n    ${WIN}text[:40])\nreturn 'no passwd'`,
  },
  { name: "host file write", body: `open('MARKER', 'w').write('x')\nreturn 'wrote inside the sandbox only'` },
  {
    name: "socket connect",
    body: `import socket\ns = socket.socket()\ns.settimeout(1)\ns.connect(('127.0.0.1', PORT))\ns.sendall(b'GET / HTTP/1.0\\r\\n\\r\\n')\n${WIN}'connected')`,
  },
  {
    name: "socket via _socket",
    body: `import _socket\ns = _socket.socket()\ns.settimeout(1)\ns.connect(('127.0.0.1', PORT))\n${WIN}'connected')`,
  },
  {
    name: "urllib",
    body: `import urllib.request\n${WIN}urllib.request.urlopen('http://127.0.0.1:PORT/', timeout=1).read())`,
  },
  {
    name: "http.client",
    body: `import http.client\nc = http.client.HTTPConnection('127.0.0.1', PORT, timeout=1)\nc.request('GET', '/')\n${WIN}c.getresponse().status)`,
  },
  { name: "os.environ secrets", body: `import os\nreturn dict(os.environ)` },
  {
    name: "/proc environ walk",
    body: `import os\nfound = []\nfor pid in os.listdir('/proc'):\n    try:\n        found.append(open('/proc/%s/environ' % pid, 'rb').read().decode('latin1'))\n    except Exception:\n        pass\nreturn found`,
  },
  {
    name: "gc.get_objects walk",
    body: `import gc\nobjs = [o for o in gc.get_objects() if 'Js' in type(o).__name__]\n${WIN}len(objs))`,
  },
  { name: "object.__subclasses__ walk", body: SUBCLASS_WALK() },
  {
    name: "audit hook bypass",
    body: `import sys\nsys.addaudithook(lambda *a: None)\nimport ctypes\n${WIN}ctypes)`,
  },
  {
    name: "recursion limit raise + deep recursion",
    body: `import sys\nsys.setrecursionlimit(10**6)\ndef f(n):\n    return f(n + 1)\nreturn f(0)`,
  },
  {
    name: "protocol injection via fd 1",
    body: `import os\nos.write(1, b'{"id":1,"ok":true,"reply":{"ok":true}}\\n')\nprint('{"ok": true}')\nreturn 'injected?'`,
  },
  {
    // python3 backends: the protocol's private fds are findable; Pyodide: host fds do not exist.
    name: "forged replies on every fd",
    body: `import os\nline = ('{"ok":true,"observation":"ESC' + 'APED forged","is_error":false,"diff":{"added":[],"removed":[],"changed":[]},"stdout":"","stderr":""}\\n').encode()\nfor fd in range(3, 64):\n    try:\n        os.write(fd, line)\n        os.write(fd, b'0 ' + line)\n    except Exception:\n        pass\nreturn 'forged'`,
  },
  { name: "stdin read", body: `line = input()\n${WIN}line)` },
  { name: "kill parent", body: `import os\nos.kill(os.getppid(), 9)\n${WIN}'killed')` },
  { name: "os._exit (kill the runtime)", body: `import os\nos._exit(0)` },
  {
    name: "threading escape",
    body: `import threading\nt = threading.Thread(target=lambda: open('MARKER', 'w'))\nt.start()\nreturn 'thread'`,
  },
];

/** Breadth-first walk from object.__subclasses__() looking for JsProxy objects, then trying to
 * turn any of them into code execution (the research note's "determined attacker"). */
function SUBCLASS_WALK(): string {
  return [
    "import types",
    "seen, queue, proxies = set(), list(object.__subclasses__()), []",
    "steps = 0",
    "while queue and steps < 60000:",
    "    obj = queue.pop(0); steps += 1",
    "    if id(obj) in seen: continue",
    "    seen.add(id(obj))",
    "    if 'JsProxy' in type(obj).__name__ or type(obj).__module__ == 'pyodide.ffi':",
    "        proxies.append(obj)",
    "    for attr in ('__globals__', '__self__', '__closure__', '__defaults__', '__dict__', '__func__', '__wrapped__'):",
    "        try: v = getattr(obj, attr)",
    "        except Exception: continue",
    "        if isinstance(v, (dict, types.MappingProxyType)): queue.extend(v.values())",
    "        elif isinstance(v, (tuple, list)): queue.extend(getattr(c, 'cell_contents', c) for c in v)",
    "        elif v is not None: queue.append(v)",
    "for p in proxies:",
    "    for attempt in (lambda: p.constructor.constructor('return process.pid')(), lambda: p.process.pid, lambda: p.require('fs')):",
    "        try:",
    "            return 'ESC' + 'APED ' + str(attempt())",
    "        except Exception:",
    "            pass",
    "return 'walked %d objects, %d proxies, no escape' % (steps, len(proxies))",
  ].join("\n");
}

/** Attempts at load time (module level), where the harness has not yet wrapped anything. */
export const LOAD_ATTACKS: string[] = [
  "import os\nos.system('touch MARKER')\nclass Env: pass",
  "import js\njs.process.getBuiltinModule('child_process').execSync('touch MARKER')\nclass Env: pass",
  "__import__('subprocess').run(['touch', 'MARKER'])\nclass Env: pass",
];

/** Attempts inside check functions. */
export const CHECK_ATTACKS: string[] = [
  "import os\ndef check_func(final_state):\n    os.system('touch MARKER')\n    return True",
  "def check_func(final_state):\n    import js\n    return str(js.process.env)",
  "def check_func(final_state):\n    open('MARKER', 'w').write('x')\n    return open('SECRET_FILE').read() == ''",
];

/** Tries to turn a JsProxy `p` (if the attacker ever got one) into a network connection: a getter
 * on Object.prototype that captures Pyodide's internal objects as `this`, then their socket
 * members; a thenable and a toPrimitive hook handed to JS; constructor chains. */
const JS_CHAIN = [
  "def chain(p, to_js, create_proxy):",
  "    captured = []",
  "    def grab(this, *a):",
  "        captured.append(this)",
  "    O = p.constructor",
  "    for name in ('$$', '$$flags', '_pyodide', 'isPyProxy', 'then', 'toJSON', 'length', 'API', 'Module'):",
  "        try:",
  "            O.defineProperty(O.prototype, name, to_js({'get': create_proxy(grab, capture_this=True), 'configurable': True}))",
  "        except Exception:",
  "            pass",
  "    to_js({})",
  "    for obj in captured:",
  "        for attempt in (lambda: obj.initializeNodeSockFS(), lambda: obj._nodeSock.connect(3, '127.0.0.1', PORT), lambda: obj.SOCKFS.createSocket(2, 1, 0)):",
  "            try:",
  "                attempt()",
  "                return 'ESC' + 'APED via captured this'",
  "            except Exception:",
  "                pass",
  "    try:",
  "        return 'ESC' + 'APED ' + str(p.constructor.constructor('return process.pid')())",
  "    except Exception:",
  "        pass",
  "    try:",
  "        O.prototype.then = create_proxy(lambda *a: None)",
  "        return 'ESC' + 'APED thenable installed'",
  "    except Exception:",
  "        pass",
  "    return 'chain blocked'",
].join("\n");

/** Any JS object in Python's hands already breaks the rule "no object of the JS realm is
 * reachable from Python"; the chain then shows what it would lead to. */
const withChain = (acquire: string) =>
  `${JS_CHAIN}\n${acquire}\np = to_js({})\nif type(p).__name__.startswith('Js'):\n    return 'ESC' + 'APED JS object reachable: ' + chain(p, to_js, create_proxy)\nreturn 'no JS object'`;

/** A callback that connects to the listener, scheduled to run after the call has returned. */
const LATER =
  "def later(*a):\n    import socket\n    socket.create_connection(('127.0.0.1', PORT), timeout=1).close()\n    open('MARKER', 'w').write('x')";

/** The JavaScript-realm escape and its relatives (issue: Pyodide without a jail). */
export const REALM_ATTACKS: Attack[] = [
  {
    name: "builtins tampering aimed at the lockdown, then the FFI",
    body: withChain(
      "import builtins\nbuiltins.any = lambda it: False\nbuiltins.all = lambda it: True\nimport _pyodide_core\nto_js, create_proxy = _pyodide_core.to_js, _pyodide_core.create_proxy",
    ),
  },
  {
    name: "_imp.create_builtin rebuilds _pyodide_core",
    body: withChain(
      "import _imp, types\ncore = _imp.create_builtin(types.SimpleNamespace(name='_pyodide_core', origin='built-in'))\nto_js, create_proxy = core.to_js, core.create_proxy",
    ),
  },
  {
    name: "importlib _builtin_from_name",
    body: withChain(
      "import importlib._bootstrap as b\ncore = b._builtin_from_name('_pyodide_core')\nto_js, create_proxy = core.to_js, core.create_proxy",
    ),
  },
  {
    name: "pyodide.ffi via importlib and sys.modules",
    body: withChain(
      "import sys, importlib\nffi = sys.modules.get('pyodide.ffi') or importlib.import_module('pyodide.ffi')\nto_js, create_proxy = ffi.to_js, ffi.create_proxy",
    ),
  },
  {
    name: "pyodide.code.run_js after the lockdown",
    body: `import importlib\ncode = importlib.import_module('pyodide.code')\n${WIN}code.run_js('process.pid'))`,
  },
  { name: "deep object walk for FFI objects", body: DEEP_WALK() },
  {
    name: "asyncio callback after the call returned",
    body: `${LATER}\nimport asyncio\nloop = asyncio.get_event_loop()\nloop.call_later(0.2, later)\nreturn 'scheduled'`,
  },
  {
    name: "thread connecting after the call returned",
    body: `${LATER}\nimport threading\nthreading.Timer(0.2, later).start()\nreturn 'scheduled'`,
  },
  {
    name: "raw _socket, bypassing socket.py",
    body: `import _socket\ns = _socket.socket(2, 1)\ns.connect(('127.0.0.1', PORT))\n${WIN}'raw socket')`,
  },
  { name: "os.abort (crash the runtime)", body: "import os\nos.abort()" },
  {
    name: "SIGSEGV to itself",
    body: "import signal, os\ntry:\n    signal.raise_signal(signal.SIGSEGV)\nexcept Exception:\n    pass\nreturn 'alive'",
  },
  { name: "huge allocation", body: "x = 'x' * (2 ** 31)\nreturn len(x)" },
];

/** Walks from many roots (subclasses, modules, builtins, frames) through attributes, closures and
 * containers, looking for anything of the FFI: JsProxy objects or to_js/create_proxy/run_js. */
function DEEP_WALK(): string {
  return [
    "import sys, builtins, types",
    "roots = list(sys.modules.values()) + [builtins, sys._getframe()]",
    "stack = list(object.__subclasses__())",
    "while stack:",
    "    c = stack.pop(); roots.append(c)",
    "    try: stack.extend(type.__subclasses__(c))",
    "    except Exception: pass",
    "seen, queue, found = set(), roots, []",
    "steps = 0",
    "while queue and steps < 200000:",
    "    obj = queue.pop(); steps += 1",
    "    if id(obj) in seen: continue",
    "    seen.add(id(obj))",
    "    t = type(obj)",
    // Python-level stubs of the same names (typing overloads of the docs module) do nothing: only
    // JS objects and the C functions of the FFI count.
    "    if (t.__name__.startswith('Js') and t.__name__ != 'JsNull') or (t.__name__ == 'builtin_function_or_method' and getattr(obj, '__name__', None) in ('to_js', 'create_proxy', 'run_js', 'create_once_callable')):",
    "        found.append(obj)",
    "    if isinstance(obj, dict): queue.extend(obj.values()); continue",
    "    if isinstance(obj, (list, tuple, set, frozenset)): queue.extend(obj); continue",
    "    for attr in ('__dict__', '__globals__', '__closure__', '__defaults__', '__kwdefaults__', '__self__', '__func__', '__wrapped__', 'f_back', 'f_globals', 'f_locals', 'cell_contents', '__mro__'):",
    "        try: v = getattr(obj, attr)",
    "        except Exception: continue",
    "        if v is not None: queue.append(dict(v) if isinstance(v, types.MappingProxyType) else v)",
    "for f in found:",
    "    for attempt in (lambda: f({}).constructor, lambda: f.constructor, lambda: f('process.pid')):",
    "        try:",
    "            r = attempt()",
    "        except Exception:",
    "            continue",
    "        if type(r).__name__.startswith('Js') or isinstance(r, int):",
    "            return 'ESC' + 'APED ' + repr(f)[:60]",
    "return 'walked %d objects, found %d FFI objects, none usable' % (steps, len(found))",
  ].join("\n");
}
