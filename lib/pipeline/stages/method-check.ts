/**
 * Sandbox syntax checks for the methods of one environment, written concurrently. Each method is
 * checked inside a stub class; the checks of the methods that are waiting at the same time go to
 * the sandbox as one stub holding all of them, and only when that stub does not parse is each one
 * analysed alone — so every error a model is shown still comes from its own method, while the
 * usual case costs one sandbox call per environment instead of one per method.
 *
 * Methods are checked once every method still being written is waiting for its check (a barrier):
 * the step waits for its slowest method anyway, so holding the others back costs it nothing.
 */
import type { StageDeps } from "./deps";

type Pending = { code: string; resolve: (problem: string | null) => void };

const indent = (code: string) =>
  code
    .split("\n")
    .map((l) => (l ? `    ${l}` : l))
    .join("\n");
const stubOf = (codes: string[]) => `class _MethodCheck:\n${codes.map(indent).join("\n\n")}\n`;

async function checkAlone(code: string, deps: Pick<StageDeps, "sandbox">): Promise<string | null> {
  const analysis = await deps.sandbox.analyze({ source: stubOf([code]), className: "_MethodCheck" });
  if (!analysis.ok) return `the sandbox could not parse the method: ${analysis.error.message}`;
  const [syntax] = analysis.value.syntaxErrors;
  // Line 1 of the stub is the class line.
  return syntax
    ? `SyntaxError at line ${Math.max(1, syntax.line - 1)} of your method: ${syntax.message}`
    : null;
}

async function checkTogether(batch: Pending[], deps: Pick<StageDeps, "sandbox">) {
  if (batch.length > 1) {
    const together = await deps.sandbox.analyze({
      source: stubOf(batch.map((p) => p.code)),
      className: "_MethodCheck",
    });
    if (together.ok && together.value.syntaxErrors.length === 0) return batch.forEach((p) => p.resolve(null));
  }
  // A stub that does not parse says only where the parser gave up, which may lie in the method
  // after the broken one (an unclosed string runs on): each method is analysed alone.
  await Promise.all(batch.map(async (p) => p.resolve(await checkAlone(p.code, deps))));
}

export type MethodChecker = {
  /** A method starts being written; `done` must be called once it is written or given up. */
  begin(): { check: (code: string) => Promise<string | null>; done: () => void };
};

export function createMethodChecker(deps: Pick<StageDeps, "sandbox">): MethodChecker {
  let writing = 0;
  let pending: Pending[] = [];
  const flushIfAllWaiting = () => {
    if (pending.length === 0 || pending.length < writing) return;
    const batch = pending;
    pending = [];
    void checkTogether(batch, deps).catch((error: unknown) =>
      batch.forEach((p) => p.resolve(`the sandbox could not parse the method: ${String(error)}`)),
    );
  };
  return {
    begin() {
      writing += 1;
      let finished = false;
      return {
        check: (code) =>
          new Promise<string | null>((resolve) => {
            pending.push({ code, resolve });
            flushIfAllWaiting();
          }),
        done: () => {
          if (finished) return;
          finished = true;
          writing -= 1;
          flushIfAllWaiting();
        },
      };
    },
  };
}
