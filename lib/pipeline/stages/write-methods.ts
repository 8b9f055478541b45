/**
 * Logic modelling, step 4 (spec §3.4): one method per operation, written concurrently (the
 * endpoint's limiter bounds them). Each method is parsed in the sandbox inside a stub class before
 * it is accepted (method-check.ts), and a syntax error goes back to the model as a re-ask. An operation whose method
 * still fails is reported and left out, instead of silently dropping the whole environment.
 */
import { err, ok } from "../../core/result";
import { type LlmError, chatParsed, extractPythonBlock } from "../../llm";
import type { Method, Operation, StateCode, StateSpace, Topic } from "../pipeline.schema";
import { type StageDeps, type StageResult, reasksFor, stageTag } from "./deps";
import { describeTopic } from "./infer-state";
import { type MethodChecker, createMethodChecker } from "./method-check";
import { describeState } from "./write-state-code";

const SYSTEM = `${stageTag("methods")}
You write one method of an existing Python environment class. First reason briefly about the entities, parameters, outputs, edge cases (invalid input, missing ids, rule violations) and relevant constraints, then give the code.
Conventions (mandatory):
- a method of the existing class: def <operation_name>(self, ...) with type hints and a Google-style docstring (Args, Returns, Constraints);
- never raise; on failure return {"success": False, "error": "<reason>"};
- a query returns {"success": True, "data": <result>}; a state change returns {"success": True, "message": "<what happened>"};
- validate argument types and values; only standard-library imports; synchronous code only.
Put the method in one \`\`\`python fenced block starting with the def line.`;

export type WriteMethodsOutput = { methods: Method[]; skipped: { name: string; error: string }[] };

export function dedent(code: string): string {
  const lines = code.replace(/\t/g, "    ").split("\n");
  const indents = lines.filter((l) => l.trim()).map((l) => l.length - l.trimStart().length);
  const min = Math.min(...indents, Infinity);
  return lines.map((l) => l.slice(Number.isFinite(min) ? min : 0)).join("\n");
}

/** The def line must define exactly the requested operation (a method, not a free function). */
export function checkMethodShape(code: string, name: string): string | null {
  const def = /^def\s+([A-Za-z_]\w*)\s*\(\s*(\w+)?/m.exec(code);
  if (!def) return `no 'def ${name}(self, ...)' line at the top level of the block`;
  if (def[1] !== name) return `the method must be named '${name}', not '${def[1]}'`;
  if (def[2] !== "self") return `'${name}' must be a method whose first parameter is self`;
  if (/^\s*async\s+def\b/m.test(code)) return "async methods are not allowed";
  return null;
}

async function writeOne(
  op: Operation,
  context: string,
  deps: StageDeps,
  checker: MethodChecker,
): Promise<{ ok: true; value: Method } | { ok: false; error: LlmError }> {
  const { check, done } = checker.begin();
  try {
    const reply = await chatParsed(
      deps.llm,
      {
        model: deps.models.code,
        purpose: `write method ${op.name}`,
        cacheSalt: deps.cacheSalt,
        messages: [
          { role: "system", content: SYSTEM },
          {
            role: "user",
            content: `${context}\n\n# Target Operation\nname: ${op.name}\ntype: ${op.type}\ndescription: ${op.description}`,
          },
        ],
      },
      async (r) => {
        const block = extractPythonBlock(r.content);
        if (!block.ok) return block;
        const code = dedent(block.value);
        const shape = checkMethodShape(code, op.name);
        if (shape) return err(shape);
        const problem = await check(code);
        return problem ? err(problem) : ok({ name: op.name, code });
      },
      reasksFor(deps, "methods"),
    );
    return reply.ok ? ok(reply.value.value) : reply;
  } finally {
    done();
  }
}

export async function writeMethods(
  input: { topic: Topic; state: StateSpace; stateCode: StateCode; operations: Operation[] },
  deps: StageDeps,
): StageResult<WriteMethodsOutput> {
  const context = `${describeTopic(input.topic)}\n\n${describeState(input.state)}\n\n# Class Definition\n\`\`\`python\n${input.stateCode.code}\`\`\`\n\n# Operation List\n${input.operations.map((o) => o.name).join(", ")}`;
  const checker = createMethodChecker(deps);
  const results = await Promise.all(input.operations.map((op) => writeOne(op, context, deps, checker)));
  // A transient failure (or a spent budget) fails the step so the job layer can retry or stop;
  // the cache makes methods already written free on the retry.
  const blocking = results.find(
    (r) => !r.ok && (r.error.retryable || r.error.code === "BUDGET_EXCEEDED" || r.error.code === "CANCELLED"),
  );
  if (blocking && !blocking.ok) return blocking;
  const methods = results.flatMap((r) => (r.ok ? [r.value] : []));
  const skipped = results.flatMap((r, i) =>
    r.ok ? [] : [{ name: input.operations[i]?.name ?? "?", error: r.error.message }],
  );
  if (methods.length === 0)
    return err({
      code: "NO_METHODS",
      message: `no method could be written: ${skipped.map((s) => `${s.name}: ${s.error}`).join("; ")}`,
      retryable: false,
    });
  return ok({ methods, skipped });
}
