/**
 * The two agents of the quality check (spec §4.2): a tester proposing one tool call per round
 * (through a `propose_test_call` function call, or the same JSON in plain text for endpoints
 * without tool calling) and a judge grading the call. Both are bounded re-asks — EnvScaler's
 * never-incremented retry counters looped forever (spec §12.1 #3).
 */
import { z } from "zod";
import { err, ok } from "../../core/result";
import { type ChatResult, type FunctionTool, chatParsed, parseJsonWith } from "../../llm";
import type { Tool } from "../../sandbox";
import { type StageDeps, reasksFor, stageTag } from "./deps";

export const ProposalSchema = z.object({
  thought: z.string().default(""),
  tool: z.string().min(1),
  arguments: z.record(z.string(), z.unknown()),
  case_type: z.enum(["positive", "negative"]),
});
export type Proposal = z.infer<typeof ProposalSchema>;

const PROPOSE_TOOL: FunctionTool = {
  type: "function",
  function: {
    name: "propose_test_call",
    description: "Propose the one tool call to run this round.",
    parameters: {
      type: "object",
      properties: {
        thought: { type: "string" },
        tool: { type: "string", description: "name of the environment tool to call" },
        arguments: { type: "object", description: "keyword arguments for the tool" },
        case_type: { type: "string", enum: ["positive", "negative"] },
      },
      required: ["tool", "arguments", "case_type"],
    },
  },
};

const TESTER_SYSTEM = `${stageTag("tester")}
You are an experienced tester doing exploratory testing of the tool methods of a simulated environment. Each round you propose ONE tool call; it is executed and graded pass / warning / fail.
Mix positive cases (valid inputs that should succeed) and negative cases (wrong types, non-existent ids, out-of-range, empty or extreme values, rule violations that must be refused). Cover all tools with balanced counts; prefer untested tools and the under-represented case type; never exceed 10 tests per tool. Argument names must be the tool's parameter names; values may be invalid on purpose.
Call propose_test_call, or answer with the same JSON object: {"thought", "tool", "arguments", "case_type"}.`;

export type ToolStats = Record<
  string,
  { total: number; positive: number; negative: number; PASS: number; WARNING: number; FAIL: number }
>;

function statsTable(stats: ToolStats): string {
  const rows = Object.entries(stats).map(
    ([n, s]) =>
      `| ${n} | ${s.total} | ${s.negative} | ${s.positive} | ${s.PASS} | ${s.WARNING} | ${s.FAIL} |`,
  );
  return [
    "| Tool | Total | Negative | Positive | Pass | Warning | Fail |",
    "|---|---|---|---|---|---|---|",
    ...rows,
  ].join("\n");
}

const clip = (text: string, max = 12_000) =>
  text.length > max ? `${text.slice(0, max)}\n… (${text.length - max} more characters)` : text;

export function parseProposal(reply: ChatResult, tools: Tool[]) {
  const call = reply.toolCalls.find((c) => c.name === "propose_test_call");
  const parsed = parseJsonWith(ProposalSchema, call ? call.arguments : reply.content);
  if (!parsed.ok) return parsed;
  const tool = tools.find((t) => t.function.name === parsed.value.tool);
  if (!tool)
    return err(
      `'${parsed.value.tool}' is not a tool of this environment; choose one of: ${tools.map((t) => t.function.name).join(", ")}`,
    );
  const known = Object.keys(tool.function.parameters.properties);
  const unknown = Object.keys(parsed.value.arguments).filter((k) => !known.includes(k));
  if (unknown.length)
    return err(
      `${tool.function.name} has no parameter(s) ${unknown.join(", ")}; its parameters are: ${known.join(", ") || "(none)"}`,
    );
  return ok(parsed.value);
}

export async function proposeCall(
  input: { introduction: string; tools: Tool[]; stats: ToolStats; state: unknown },
  deps: StageDeps,
) {
  const signatures = input.tools.map(
    (t) =>
      `${t.function.name}(${Object.keys(t.function.parameters.properties).join(", ")}): ${t.function.description.split("\n")[0] ?? ""}`,
  );
  return chatParsed(
    deps.llm,
    {
      model: deps.models.tester,
      temperature: 0.5,
      purpose: "tester: propose a call",
      cacheSalt: deps.cacheSalt,
      tools: [PROPOSE_TOOL],
      toolChoice: "auto",
      messages: [
        {
          role: "system",
          content: `${TESTER_SYSTEM}\n\n# Environment\n${input.introduction}\n\n# Tools\n${JSON.stringify(input.tools.map((t) => t.function))}`,
        },
        {
          role: "user",
          content: `# Test statistics\n${statsTable(input.stats)}\n\n# Current state\n${clip(JSON.stringify(input.state))}\n\n# Signatures\n${signatures.join("\n")}\n\nPropose the next call.`,
        },
      ],
    },
    (r) => parseProposal(r, input.tools),
    reasksFor(deps, "tester"),
  );
}

const JUDGE_SYSTEM = `${stageTag("judge_call")}
You are a simulation-environment testing specialist. Check whether one tool call behaved as expected: correct state transitions; consistency between the code's logic, its conditions, the state change and the return value; rules enforced; no unexpected exceptions.
Verdicts: PASS - fully meets expectations; WARNING - functionally correct but with robustness gaps (missing validation, boundary checks, minor issues); FAIL - expectations not met (logic errors, wrong state change, unhandled exception, rule violated, or a negative case that was wrongly accepted).
Answer with one JSON object: {"analysis": "<reasoning>", "verdict": "PASS" | "WARNING" | "FAIL", "error_reason": "<cause and suggested fix, or 'No error'>"}`;

const JudgmentSchema = z.object({
  analysis: z.string().default(""),
  verdict: z
    .string()
    .transform((v) => v.trim().toUpperCase())
    .pipe(z.enum(["PASS", "WARNING", "FAIL"])),
  error_reason: z.string().default(""),
});

export type JudgeCallInput = {
  introduction: string;
  rules: string[];
  methodSource: string;
  proposal: Proposal;
  stateBefore: unknown;
  observation: unknown;
  diff: unknown;
};

export async function judgeCall(input: JudgeCallInput, deps: StageDeps) {
  const p = input.proposal;
  const body = [
    `# Environment\n${input.introduction}`,
    `# Rules\n${input.rules.map((r) => `- ${r}`).join("\n")}`,
    `# Method source\n\`\`\`python\n${input.methodSource}\n\`\`\``,
    `# Call (${p.case_type} case)\n${p.tool}(${JSON.stringify(p.arguments)})`,
    `# State before\n${clip(JSON.stringify(input.stateBefore), 8000)}`,
    `# Return value (JSON)\n${clip(JSON.stringify(input.observation), 4000)}`,
    `# State diff\n${clip(JSON.stringify(input.diff), 4000)}`,
  ].join("\n\n");
  const reply = await chatParsed(
    deps.llm,
    {
      model: deps.models.judge,
      temperature: 0,
      purpose: "judge: grade the call",
      cacheSalt: deps.cacheSalt,
      messages: [
        { role: "system", content: JUDGE_SYSTEM },
        { role: "user", content: body },
      ],
    },
    (r) => parseJsonWith(JudgmentSchema, r.content),
    reasksFor(deps, "judge_call"),
  );
  if (!reply.ok) return reply;
  const v = reply.value.value;
  return ok({ verdict: v.verdict, rationale: [v.analysis, v.error_reason].filter(Boolean).join("\n\n") });
}
