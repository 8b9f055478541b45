/**
 * The prompt of a check repair: one failing check with the exact evidence that condemned it. The
 * model answers with a diagnosis and the complete corrected definition(s) in a ```python block.
 */
import { type Result, err, ok } from "../core/result";
import type { ChatMessage } from "../llm";
import type { CheckResult } from "../sandbox/sandbox.schema";
import type { FailingCheck, ValidatorEvidence } from "./repair.schema";

export const repairTag = (id: string) => `[stage:${id}]`;

/** States can be large; the model gets each piece of evidence up to this many characters. */
const MAX_EVIDENCE_CHARS = 8000;

export const clip = (text: string, max = MAX_EVIDENCE_CHARS) =>
  text.length <= max ? text : `${text.slice(0, max)}\n… (${text.length - max} more characters cut)`;
const json = (value: unknown) => clip(JSON.stringify(value, null, 2) ?? "null");

const CHECK_SYSTEM = `${repairTag("repair_check")}
You repair one verification function of a scenario. A proof condemned it: on the untouched initial
state every check must return False, after the gold solution every check must return True, and
each check must flip from False to True between the two. Rules:
- fix what the evidence shows is wrong; keep the checklist item's meaning;
- never make the check pass on the initial state (a trivially true check is refused);
- guard against missing or None fields instead of raising;
- keep the signature exactly: def check_func(final_state); you may read the global \`initial_state\`;
- send only complete definitions that the current code already has (check_func and its helpers),
  nothing else: no imports or statements outside them.
Answer in two sections:
# Diagnosis
<one or two sentences: what was wrong>
# Fix
\`\`\`python
def check_func(final_state):
    ...
\`\`\``;

const describeResult = (r: CheckResult | null) =>
  r === null ? "not run" : "error" in r ? `raised: ${r.error}` : `returned ${r.passed ? "True" : "False"}`;

function goldText(evidence: ValidatorEvidence): string {
  if (evidence.gold.length === 0) return "(no gold calls)";
  return evidence.gold
    .map(
      (s, i) =>
        `${i + 1}. ${s.name}(${JSON.stringify(s.arguments)})${s.isError ? " [error]" : ""}\n   → ${clip(JSON.stringify(s.observation) ?? "null", 1500)}`,
    )
    .join("\n");
}

/** What the gold path did: the calls and answers, the state diff, both states. */
const goldEvidence = (evidence: ValidatorEvidence) => [
  `# Gold calls and what the environment answered\n${goldText(evidence)}`,
  `# State diff (initial → gold final)\n${json(evidence.stateDiff)}`,
  `# Initial state\n${json(evidence.initialState)}`,
  `# Gold final state\n${json(evidence.goldFinalState)}`,
];

export function checkRepairMessages(
  evidence: ValidatorEvidence,
  check: FailingCheck,
  weak: string | null = null,
): ChatMessage[] {
  const failures = check.reasons.map((r) => `- ${r.code}: ${r.message}`).join("\n");
  const user = [
    `# Task\n${evidence.task}`,
    `# Checklist item (check ${check.position + 1})\n${check.item}`,
    `# Current code\n\`\`\`python\n${check.code.trimEnd()}\n\`\`\``,
    `# What the proof found\n${failures}${weak ? `\n- WEAK: ${weak}` : ""}`,
    `- on the initial state the check ${describeResult(check.onInitial)} (must return False)`,
    `- on the gold final state the check ${describeResult(check.onGold)} (must return True)`,
    ...goldEvidence(evidence),
  ].join("\n\n");
  return [
    { role: "system", content: CHECK_SYSTEM },
    { role: "user", content: user },
  ];
}

/** The diagnosis line of an answer: the message of the version an accepted repair saves. */
export function diagnosisOf(text: string | null, fallback: string): string {
  const match = /#\s*Diagnosis\s*\n([\s\S]*?)(?:\n#\s*(?:Fix|Check)|\n```|$)/i.exec(text ?? "");
  const line = match?.[1]?.trim().replace(/\s+/g, " ");
  return line ? clip(line, 300) : fallback;
}

const WEAK_SYSTEM = `${repairTag("repair_weak_check")}
You strengthen the verification functions of a scenario. Their proof holds (on the untouched
initial state every check returns False, after the gold solution every check returns True), but a
near-miss — a trajectory that skipped a change, changed an argument or stopped early — also earns
full reward: every check returns True on the state it leaves. Change ONE check so that it tells
the gold final state from the near-miss's final state(s). Rules:
- keep the checklist item's meaning; check what the task asks for, not incidental details;
- the check must still return False on the initial state and True on the gold final state;
- guard against missing or None fields instead of raising;
- keep the signature exactly: def check_func(final_state); you may read the global \`initial_state\`;
- send only complete definitions that the check's code already has, nothing else.
Answer in three sections:
# Diagnosis
<one or two sentences: what the checks miss>
# Check <number of the check you change>
# Fix
\`\`\`python
def check_func(final_state):
    ...
\`\`\``;

/** The prompt of a weak-validator repair: every check, and the near-misses they all accept. */
export function weakRepairMessages(
  evidence: ValidatorEvidence,
  checks: { position: number; item: string; code: string }[],
): ChatMessage[] {
  const checkText = checks
    .map((c) => `## Check ${c.position + 1}: ${c.item}\n\`\`\`python\n${c.code.trimEnd()}\n\`\`\``)
    .join("\n\n");
  const nearMisses = (evidence.weak ?? [])
    .map(
      (n, i) =>
        `## Near-miss ${i + 1}: ${n.description}\nCalls: ${clip(JSON.stringify(n.calls), 3000)}\nFinal state:\n${json(n.finalState)}`,
    )
    .join("\n\n");
  const user = [
    `# Task\n${evidence.task}`,
    `# Checks\n${checkText}`,
    `# Near-misses that earn full reward (they must not)\n${nearMisses}`,
    ...goldEvidence(evidence),
  ].join("\n\n");
  return [
    { role: "system", content: WEAK_SYSTEM },
    { role: "user", content: user },
  ];
}

/**
 * Which check a weak-validator answer changes (0-based): its `# Check N` line, or the only check.
 * An error says why the answer cannot be used (it is re-asked with it).
 */
export function chosenCheckOf(text: string | null, positions: number[]): Result<number, string> {
  const match = /^#\s*Check\s+(\d+)\s*$/im.exec(text ?? "");
  if (!match) {
    if (positions.length === 1) return ok(positions[0]!);
    return err("it does not say which check it changes (a line `# Check <number>`)");
  }
  const position = Number(match[1]) - 1;
  if (!positions.includes(position))
    return err(`it names check ${match[1]}, but the checks are ${positions.map((p) => p + 1).join(", ")}`);
  return ok(position);
}
