/**
 * Logic modelling, step 2 (spec §3.2): TypedDict per entity and the environment class with only
 * `__init__(self, init_config=None)`. The class name is stated explicitly and checked against the
 * code in the sandbox (`analyze`, which parses and never runs it) — no regex that misses classes
 * with bases.
 */
import { z } from "zod";
import { err, ok } from "../../core/result";
import { chatParsed, extractPythonBlock, parseJsonWith } from "../../llm";
import type { StateCode, StateSpace, Topic } from "../pipeline.schema";
import { type StageDeps, type StageResult, reasksFor, stageTag } from "./deps";
import { describeTopic } from "./infer-state";

const SYSTEM = `${stageTag("state_code")}
You are a coding assistant. Translate the state specification into a Python module with NO business methods:
- one TypedDict per entity (e.g. ProductInfo) with primitive types inferred from the names;
- one environment class (no base class) named after the environment (e.g. LinuxFileSystem) whose only method is
  __init__(self, init_config: dict = None); it declares typed containers such as self.products: Dict[str, ProductInfo] = {}
  and copies matching keys from init_config when given;
- constraints and rules as comments only; only standard-library imports (typing, copy, datetime...); no async code.
Answer with a JSON line {"class_name": "<ClassName>"} followed by the module in one \`\`\`python fenced block.`;

const HeaderSchema = z.object({ class_name: z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/) });

export function describeState(state: StateSpace): string {
  return `# State Space Definition\n${JSON.stringify(state.entities, null, 2)}\n\n# Constraints & Rules\n${state.rules.map((r) => `- ${r}`).join("\n")}`;
}

export async function writeStateCode(
  input: { topic: Topic; state: StateSpace },
  deps: StageDeps,
): StageResult<StateCode> {
  const reply = await chatParsed(
    deps.llm,
    {
      model: deps.models.code,
      purpose: "write state class",
      cacheSalt: deps.cacheSalt,
      messages: [
        { role: "system", content: SYSTEM },
        { role: "user", content: `${describeTopic(input.topic)}\n\n${describeState(input.state)}` },
      ],
    },
    // The AST check is part of the call: code that fails it is re-asked and never cached.
    async (r) => {
      const code = extractPythonBlock(r.content);
      if (!code.ok) return code;
      const header = parseJsonWith(HeaderSchema, (r.content ?? "").split("```")[0] ?? "");
      if (!header.ok) return err(`state the class name first as {"class_name": "..."}: ${header.error}`);
      const className = header.value.class_name;
      const analysis = await deps.sandbox.analyze({ source: code.value, className });
      if (!analysis.ok) throw new Error(`sandbox: ${analysis.error.message}`); // the check could not run: not the reply's fault
      const problem = structuralProblem(analysis.value);
      return problem ? err(`state class: ${problem}`) : ok({ className, code: code.value });
    },
    reasksFor(deps, "state_code"),
  );
  if (!reply.ok) return reply;
  return ok(reply.value.value);
}

type AnalysisLike = {
  syntaxErrors: { message: string; line: number }[];
  classFound: boolean;
  forbiddenImports: { module: string; line: number }[];
  hasAsync: boolean;
};

/** The structural checks shared by the state code and the assembled class. */
export function structuralProblem(a: AnalysisLike, className?: string): string | null {
  const [syntax] = a.syntaxErrors;
  if (syntax) return `SyntaxError at line ${syntax.line}: ${syntax.message}`;
  if (!a.classFound) return `class ${className ?? ""} is not defined at the top level`.replace("  ", " ");
  if (a.forbiddenImports.length)
    return `forbidden imports: ${a.forbiddenImports.map((i) => `${i.module} (line ${i.line})`).join(", ")}`;
  if (a.hasAsync) return "async code is not allowed (environments are synchronous)";
  return null;
}
