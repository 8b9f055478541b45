// Warm loads leave the source and the tool schemas out (source-on-demand.ts, runner.ts): what
// actually crosses to the worker is recorded below the runner, on a real sandbox of each backend.
// A worker that lacks the source asks for it; tool lists stay exact when an instance shadows a
// tool; episodes still start from a pristine module.
import { afterAll, describe, expect, it } from "vitest";
import type { Backend, HarnessRequest } from "../backend";
import { resolveOptions } from "../options";
import { createProcessBackend } from "../process-backend";
import { createPyodideBackend } from "../pyodide-backend";
import { createRunnerWithBackend } from "../runner";

const SOURCE = `
SEEN = []

class Shelf:
    opened = 0

    def __init__(self):
        self.books = {}
        Shelf.opened += 1
        SEEN.append(Shelf.opened)

    def add_book(self, book_id: str) -> dict:
        """Adds a book."""
        self.books[book_id] = True
        return {"success": True, "data": sorted(self.books)}

    def count(self) -> dict:
        """How many books, and how often the class was opened in this module."""
        return {"success": True, "data": {"books": len(self.books), "opened": Shelf.opened, "seen": list(SEEN)}}
`;

type Sent = { op: string; hasSource: boolean; sourceKey?: string; schemas?: boolean; reply: unknown };

/** The real backend, with every request and reply written down as it passes. */
function recording(backend: Backend, sent: Sent[]): Backend {
  return {
    name: backend.name,
    stats: () => backend.stats(),
    close: () => backend.close(),
    async lease(key, waitMs) {
      const lease = await backend.lease(key, waitMs);
      if (!lease.ok) return lease;
      return {
        ok: true,
        value: {
          async call(request: HarnessRequest, timeoutMs: number) {
            const result = await lease.value.call(request, timeoutMs);
            if (request.op === "load")
              sent.push({
                op: request.op,
                hasSource: request.source !== undefined,
                sourceKey: request.source_key,
                schemas: request.schemas,
                reply: result.ok ? result.value : result.error,
              });
            return result;
          },
          release: (recycle, weight) => lease.value.release(recycle, weight),
        },
      };
    },
  };
}

const toolNames = (tools: { function: { name: string } }[]) => tools.map((t) => t.function.name).sort();

for (const backend of ["pyodide", "bwrap"] as const) {
  describe(`warm loads on ${backend}`, () => {
    const sent: Sent[] = [];
    const options = resolveOptions({ backend, hostInBwrap: "off", poolSize: 1, spareWorkers: 0 });
    const runner = createRunnerWithBackend(
      recording(
        backend === "bwrap" ? createProcessBackend(options, "bwrap") : createPyodideBackend(options),
        sent,
      ),
      options,
    );
    afterAll(() => runner.close());

    async function episode(initialState: Record<string, unknown> = {}) {
      const loaded = await runner.load({ source: SOURCE, className: "Shelf", initialState });
      if (!loaded.ok) throw new Error(`${loaded.error.code}: ${loaded.error.message}`);
      return loaded.value;
    }

    it("sends the source and schemas once per worker, and each episode still starts pristine", async () => {
      const first = await episode();
      expect(toolNames(first.tools())).toEqual(["add_book", "count"]);
      await first.step("add_book", { book_id: "b1" });
      await first.close();
      // The fresh worker was asked by key, answered need_source, and got the full request.
      expect(sent.map((s) => [s.hasSource, s.reply])).toEqual([
        [false, { ok: true, need_source: true }],
        [true, { ok: true, tools: first.tools(), hidden: [] }],
      ]);
      sent.length = 0;

      const second = await episode();
      expect(toolNames(second.tools())).toEqual(["add_book", "count"]);
      expect(second.tools()).toEqual(first.tools());
      // One request: no source, no schemas back.
      expect(sent).toHaveLength(1);
      expect(sent[0]).toMatchObject({
        op: "load",
        hasSource: false,
        schemas: false,
        reply: { ok: true, hidden: [] },
      });
      expect(sent[0]?.sourceKey).toMatch(/^[0-9a-f]{64}$/);
      const count = await second.step("count", {});
      if (!count.ok) throw new Error(count.error.message);
      // A fresh module per episode: the class attribute and the module list start over.
      expect(count.value.observation).toEqual({ success: true, data: { books: 0, opened: 1, seen: [1] } });
      await second.close();
    });

    it("an instance that shadows a tool loses only that tool, and a partial list is never kept", async () => {
      // A source of its own, whose first instance shadows `count` with a state key.
      const source = `${SOURCE}\n# shadowed first`;
      const load = async (initialState: Record<string, unknown>) => {
        const loaded = await runner.load({ source, className: "Shelf", initialState });
        if (!loaded.ok) throw new Error(loaded.error.message);
        await loaded.value.close();
        return toolNames(loaded.value.tools());
      };
      sent.length = 0;
      expect(await load({ count: 3 })).toEqual(["add_book"]);
      expect(sent.at(-1)?.reply).toEqual(expect.objectContaining({ hidden: ["count"] }));
      // The partial list was not kept: the next load asks for the schemas again and gets both.
      sent.length = 0;
      expect(await load({})).toEqual(["add_book", "count"]);
      expect(sent.map((s) => s.schemas)).toEqual([undefined]);
      // Now they are held; a shadowing instance is told apart by `hidden` alone.
      sent.length = 0;
      expect(await load({ count: 1 })).toEqual(["add_book"]);
      expect(sent).toEqual([
        expect.objectContaining({ schemas: false, reply: { ok: true, hidden: ["count"] } }),
      ]);
      expect(await load({})).toEqual(["add_book", "count"]);
    });

    it("a load restricted to some tools gets exactly those from the held schemas", async () => {
      const loaded = await runner.load({
        source: SOURCE,
        className: "Shelf",
        initialState: {},
        tools: ["count"],
      });
      if (!loaded.ok) throw new Error(loaded.error.message);
      expect(toolNames(loaded.value.tools())).toEqual(["count"]);
      const refused = await loaded.value.step("add_book", { book_id: "x" });
      expect(refused.ok && refused.value.isError).toBe(true);
      await loaded.value.close();
    });

    it("a source that does not load still reports its own error", async () => {
      sent.length = 0;
      const broken = await runner.load({ source: "class Shelf(:\n", className: "Shelf", initialState: {} });
      expect(broken.ok).toBe(false);
      if (!broken.ok) expect(broken.error.message).toMatch(/SyntaxError at line 1/);
      expect(sent.map((s) => s.hasSource)).toEqual([false, true]);
    });
  });
}
