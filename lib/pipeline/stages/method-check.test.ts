import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSandboxRunner, type SandboxRunner } from "@/lib/sandbox";
import { createMethodChecker } from "./method-check";

let sandbox: SandboxRunner;
let analyses: string[] = [];
const deps = () => ({
  sandbox: {
    load: (...a: Parameters<SandboxRunner["load"]>) => sandbox.load(...a),
    analyze: (request: { source: string; className: string }) => {
      analyses.push(request.source);
      return sandbox.analyze(request);
    },
  },
});
beforeAll(() => {
  sandbox = createSandboxRunner();
});
afterAll(async () => {
  await sandbox.close();
});

const method = (name: string, body = 'return {"success": True}') =>
  `def ${name}(self) -> dict:\n    """${name}."""\n    ${body}\n`;
const UNCLOSED = 'return {"success": """oops}';

/** Checks methods written at the same time, as writeMethods does: every one begins, then replies come. */
async function checkAll(codes: string[]) {
  const checker = createMethodChecker(deps());
  const writing = codes.map(() => checker.begin());
  return Promise.all(
    codes.map(async (code, i) => {
      try {
        return await writing[i]!.check(code);
      } finally {
        writing[i]!.done();
      }
    }),
  );
}

describe("method syntax checks in the sandbox", () => {
  it("checks methods waiting together in one sandbox call", async () => {
    analyses = [];
    expect(await checkAll([method("a"), method("b"), method("c"), method("d")])).toEqual([
      null,
      null,
      null,
      null,
    ]);
    expect(analyses).toHaveLength(1);
    expect(analyses[0]).toMatch(/def a\(self\)[\s\S]*def d\(self\)/);
  });

  it("blames only the broken method, with the error it gets when checked alone", async () => {
    const alone = await checkAll([method("c", UNCLOSED)]);
    analyses = [];
    // The unclosed string runs on into d: the shared stub's parser gives up in d, not in c.
    const together = await checkAll([method("a"), method("b"), method("c", UNCLOSED), method("d")]);
    expect(together).toEqual([null, null, alone[0], null]);
    expect(alone[0]).toMatch(/^SyntaxError at line \d+ of your method: /);
    expect(analyses).toHaveLength(5);
  });

  it("waits for a method still being written before checking the others", async () => {
    analyses = [];
    const checker = createMethodChecker(deps());
    const first = checker.begin();
    const second = checker.begin();
    const checked = first.check(method("a"));
    await new Promise((r) => setTimeout(r, 50));
    expect(analyses).toHaveLength(0);
    // The second method is given up (its model call failed): the first is checked without it.
    second.done();
    expect(await checked).toBeNull();
    first.done();
    expect(analyses).toHaveLength(1);
  });
});
