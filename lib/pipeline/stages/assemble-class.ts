/**
 * Logic modelling, steps 5–6 (spec §3.5–3.6): methods go at the end of the environment class
 * body (found by name, so the class need not be last nor `__init__` first), module-level imports
 * from method blocks are hoisted once, and the sandbox checks the whole module (syntax, class,
 * forbidden imports, async) and extracts the tool schemas. Only the planned operations become
 * tools: private helpers are never exposed (spec §12.1 #6).
 */
import { err, ok } from "../../core/result";
import type { Assembled, Method, Operation, StateCode } from "../pipeline.schema";
import type { StageDeps, StageResult } from "./deps";
import { structuralProblem } from "./write-state-code";

const IMPORT_LINE = /^(import\s+\S|from\s+\S+\s+import\s)/;

/** Splits a method block into its leading module-level imports and the method itself. */
function splitImports(code: string): { imports: string[]; body: string } {
  const lines = code.split("\n");
  const defAt = lines.findIndex((l) => /^def\s/.test(l) || /^@/.test(l));
  const head = defAt < 0 ? [] : lines.slice(0, defAt);
  return {
    imports: head.filter((l) => IMPORT_LINE.test(l)).map((l) => l.trim()),
    body: lines.slice(Math.max(defAt, 0)).join("\n").trimEnd(),
  };
}

export function assembleSource(stateCode: StateCode, methods: Method[]): string {
  const lines = stateCode.code.replace(/\s+$/, "").split("\n");
  const classAt = lines.findIndex((l) => new RegExp(`^class\\s+${stateCode.className}\\b`).test(l));
  if (classAt < 0) throw new Error(`class ${stateCode.className} not found in the state code`);
  // The class body ends at the next non-blank, non-comment line at column 0.
  const endRel = lines
    .slice(classAt + 1)
    .findIndex((l) => l.length > 0 && !/^\s/.test(l) && !l.startsWith("#"));
  const end = endRel < 0 ? lines.length : classAt + 1 + endRel;
  const parts = methods.map((m) => splitImports(m.code));
  const existing = new Set(lines.filter((l) => IMPORT_LINE.test(l)).map((l) => l.trim()));
  const hoisted = [...new Set(parts.flatMap((p) => p.imports))].filter((i) => !existing.has(i));
  const indented = parts.map((p) =>
    p.body
      .split("\n")
      .map((l) => (l ? `    ${l}` : l))
      .join("\n"),
  );
  const before = lines.slice(0, end);
  while (before.length && !before.at(-1)?.trim()) before.pop();
  return (
    [...hoisted, ...before, "", indented.join("\n\n"), "", ...lines.slice(end)]
      .join("\n")
      .replace(/\n{3,}(?=\S)/g, "\n\n\n")
      .trimEnd() + "\n"
  );
}

export async function assembleClass(
  input: { stateCode: StateCode; methods: Method[]; operations: Operation[] },
  deps: StageDeps,
): StageResult<Assembled> {
  let source: string;
  try {
    source = assembleSource(input.stateCode, input.methods);
  } catch (e) {
    return err({
      code: "INVALID_CODE",
      message: e instanceof Error ? e.message : String(e),
      retryable: false,
    });
  }
  const analysis = await deps.sandbox.analyze({ source, className: input.stateCode.className });
  if (!analysis.ok) return analysis;
  const problem = structuralProblem(analysis.value, input.stateCode.className);
  if (problem) return err({ code: "INVALID_CODE", message: `assembled class: ${problem}`, retryable: false });
  const written = new Set(input.methods.map((m) => m.name));
  const missing = input.operations.filter(
    (o) => written.has(o.name) && !analysis.value.publicMethods.includes(o.name),
  );
  if (missing.length)
    return err({
      code: "INVALID_CODE",
      message: `methods missing from the class after assembly: ${missing.map((m) => m.name).join(", ")}`,
      retryable: false,
    });
  const tools = analysis.value.tools.filter((t) => written.has(t.function.name));
  return ok({
    className: input.stateCode.className,
    source,
    tools,
    publicMethods: analysis.value.publicMethods,
  });
}
