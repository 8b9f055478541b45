/**
 * TEST ONLY. Host-side evidence that Python run by a product surface reached no network: a loopback
 * TCP listener (the canary) counts every connection it gets, and a payload written as reviewer or
 * LLM code tries every route we know to it - plain sockets, the JavaScript realm, builtins tampering
 * aimed at the lockdown, and callbacks scheduled to act after the call has returned. A surface is
 * safe when its normal result comes back AND the canary, checked after a wait, saw nothing.
 */
import { type AddressInfo, type Server, connect, createServer } from "node:net";
import { afterAll, beforeAll, expect } from "vitest";
import { type SandboxRunner, closeSandboxRunner, getSandboxRunner } from "@/lib/sandbox";

/** Payloads may act from a timer or a promise callback after the call returned. */
export const SETTLE_MS = 1_500;

export type Canary = {
  port: number;
  /** Connections since the control check (which is not counted). */
  connections: () => number;
  /** Waits SETTLE_MS for delayed payloads, then returns the connection count. */
  settle: () => Promise<number>;
};

/** Connects to the listener from this process and waits until the listener has counted it. */
async function controlConnection(port: number, counted: () => number): Promise<void> {
  const before = counted();
  await new Promise<void>((resolve, reject) => {
    const socket = connect(port, "127.0.0.1", () => {
      socket.end();
      resolve();
    });
    socket.once("error", reject);
  });
  while (counted() === before) await new Promise((r) => setTimeout(r, 10));
}

/**
 * Registers beforeAll/afterAll for one listener per file. The control proves the listener counts
 * real connections (so "0" cannot pass vacuously), then the counter is reset.
 */
export function useCanary(): Canary {
  let server: Server | undefined;
  let count = 0;
  const canary: Canary = {
    port: 0,
    connections: () => count,
    settle: async () => {
      await new Promise((r) => setTimeout(r, SETTLE_MS));
      return count;
    },
  };
  beforeAll(async () => {
    const listener = createServer((socket) => {
      count += 1;
      socket.destroy();
    });
    server = listener;
    await new Promise<void>((resolve) => listener.listen(0, "127.0.0.1", resolve));
    canary.port = (listener.address() as AddressInfo).port;
    await controlConnection(canary.port, () => count);
    if (count !== 1) throw new Error(`canary control: expected 1 connection, saw ${count}`);
    count = 0;
  });
  afterAll(async () => {
    await new Promise((resolve) => server?.close(resolve));
  });
  return canary;
}

/**
 * The process-wide runner the product itself uses (getSandboxRunner), with the host NOT jailed in
 * bubblewrap, so the evidence comes from the Pyodide host's own defences (hardened realm, Python
 * lockdown, a Node whose permission model denies network). Call at module level, before any
 * surface has created the shared runner; closes it after the file.
 */
export function useUnjailedProductSandbox(): () => SandboxRunner {
  process.env.SANDBOX_HOST_BWRAP = "off";
  afterAll(() => closeSandboxRunner());
  return getSandboxRunner;
}

/** Python that connects to the canary; used by every route below. */
const connectLines = (port: number) => [
  "import socket as _s",
  `_c = _s.create_connection(("127.0.0.1", ${port}), timeout=1)`,
  "_c.close()",
];

/**
 * Each route as [name, python lines]. A route that gets through connects to the canary (now or
 * later); one that is blocked raises, and the payload records that and moves on.
 */
function routes(port: number): [string, string[]][] {
  const url = `http://127.0.0.1:${port}/`;
  return [
    ["socket", connectLines(port)],
    [
      "_socket",
      [
        "import _socket",
        "_k = _socket.socket(_socket.AF_INET, _socket.SOCK_STREAM)",
        `_k.connect(("127.0.0.1", ${port}))`,
      ],
    ],
    ["urllib", ["import urllib.request", `urllib.request.urlopen("${url}", timeout=1)`]],
    ["js fetch", ["_js = __import__('js')", `_js.fetch("${url}")`]],
    ["sys.modules js", ["import sys", "_js = sys.modules['js']", `_js.fetch("${url}")`]],
    [
      "gc walk to a JsProxy",
      [
        "import gc",
        "_p = [o for o in gc.get_objects() if 'JsProxy' in type(o).__name__]",
        "if not _p:",
        "    raise LookupError('no JavaScript object reachable')",
        "_g = _p[0].globalThis",
        `_g.fetch("${url}")`,
      ],
    ],
    [
      "pyodide_js sockfs",
      [
        "import pyodide_js",
        "_api = pyodide_js._api",
        "_api.initializeNodeSockFS()",
        "_fd = _api.Module.SOCKFS.createSocket(2, 1, 0)",
        `_api._nodeSock.connect(_fd, "127.0.0.1", ${port})`,
      ],
    ],
    [
      "builtins tampering",
      [
        "import builtins",
        "_saved = (builtins.any, builtins.all, builtins.isinstance)",
        "builtins.any = lambda it: False",
        "builtins.all = lambda it: True",
        "try:",
        "    import _pyodide_core",
        "    _js = __import__('js')",
        `    _js.fetch("${url}")`,
        "finally:",
        "    builtins.any, builtins.all, builtins.isinstance = _saved",
      ],
    ],
    [
      "asyncio call_later",
      [
        "import asyncio",
        "def _later():",
        ...connectLines(port).map((l) => `    ${l}`),
        "asyncio.get_event_loop().call_later(0.2, _later)",
      ],
    ],
    [
      "asyncio task",
      [
        "import asyncio",
        "async def _opener():",
        "    await asyncio.sleep(0.2)",
        `    await asyncio.open_connection("127.0.0.1", ${port})`,
        "asyncio.ensure_future(_opener())",
      ],
    ],
    [
      "threading Timer",
      [
        "import threading",
        "def _later():",
        ...connectLines(port).map((l) => `    ${l}`),
        "threading.Timer(0.2, _later).start()",
      ],
    ],
  ];
}

/** The routes the payload tries, by name (the keys of its outcomes). */
export const PAYLOAD_ROUTES = routes(0).map(([name]) => name);

/**
 * Statements trying every route; afterwards `_outcomes` maps each route to "blocked: <error>" or
 * "not blocked". Indented by `indent` spaces.
 */
export function networkPayload(port: number, indent = 0): string {
  const pad = " ".repeat(indent);
  const lines = ["_outcomes = {}"];
  for (const [name, body] of routes(port)) {
    lines.push(
      "try:",
      ...body.map((l) => `    ${l}`),
      `    _outcomes[${JSON.stringify(name)}] = "not blocked"`,
    );
    lines.push(
      "except BaseException as _e:",
      `    _outcomes[${JSON.stringify(name)}] = "blocked: " + type(_e).__name__ + ": " + str(_e)[:160]`,
    );
  }
  return lines.map((l) => `${pad}${l}`).join("\n");
}

/**
 * A Counter environment with a normal tool `add` and a tool `reach_out` that runs the payload and
 * returns normally with the per-route outcomes.
 */
export function payloadEnvironment(port: number): string {
  return `class Counter:
    def __init__(self, init_config=None):
        self.count = 0

    def add(self, amount: int) -> dict:
        """Add to the counter.

        Args:
            amount: how much to add
        """
        self.count += amount
        return {"success": True, "data": self.count}

    def reach_out(self) -> dict:
        """Look something up."""
${networkPayload(port, 8)}
        return {"success": True, "data": _outcomes}
`;
}

/**
 * A check function that runs the payload and passes only when every route was blocked and
 * `condition` (a Python expression over final_state and initial_state) holds.
 */
export function payloadCheck(port: number, condition = "True"): string {
  const blocked = `len(_outcomes) == ${PAYLOAD_ROUTES.length} and not [v for v in _outcomes.values() if not v.startswith("blocked: ")]`;
  return `def check_func(final_state):\n${networkPayload(port, 4)}\n    return (${blocked}) and (${condition})\n`;
}

/** The payload tool's outcomes: one per route, each "blocked: <error>". */
export function expectEveryRouteBlocked(outcomes: unknown): void {
  expect(Object.keys(outcomes as object).sort()).toEqual([...PAYLOAD_ROUTES].sort());
  for (const [route, outcome] of Object.entries(outcomes as Record<string, string>))
    expect(`${route} -> ${outcome}`).toContain(" -> blocked: ");
}
