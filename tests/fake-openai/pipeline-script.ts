/**
 * TEST AND DEMO ONLY. A scripted "LLM" for the whole SkelBuilder pipeline: answers each stage (recognised
 * by the `[stage:<id>]` tag of its system prompt) from a sample environment cut into pieces, so
 * the pipeline produces a real, working environment. Faults can be layered on with `withFaults`.
 */
import { type ChatBody, type FakeReply, type Script, promptText, stageOf } from "./server";
import type { SampleEnv } from "./sample-env";

export type PipelineScriptOptions = {
  /** Which sample answers for a request (default: the first). */
  pick?: (text: string) => SampleEnv;
  /** Tasks containing this word are judged not stateful. */
  statelessWord?: string;
  /** Tasks containing this word get low usefulness/modelability. */
  lowScoreWord?: string;
};

const json = (value: unknown): FakeReply => ({ content: JSON.stringify(value) });

function testerRound(body: ChatBody): number {
  // Sum of the "Total" column of the statistics table = rounds graded so far.
  const rows = promptText(body)
    .split("\n")
    .filter((l) => /^\| \w+ \| \d+/.test(l));
  return rows.reduce((sum, row) => sum + Number(row.split("|")[2] ?? 0), 0);
}

function testerReply(env: SampleEnv, body: ChatBody): FakeReply {
  const round = testerRound(body);
  const gold = env.goldCalls[round % env.goldCalls.length]!;
  const negative = round % 3 === 2;
  const args = negative
    ? Object.fromEntries(
        Object.entries(gold.arguments).map(([k, v]) => [k, typeof v === "string" ? "NOPE-404" : v]),
      )
    : gold.arguments;
  return {
    toolCalls: [
      {
        name: "propose_test_call",
        arguments: {
          thought: `round ${round}`,
          tool: gold.name,
          arguments: args,
          case_type: negative ? "negative" : "positive",
        },
      },
    ],
  };
}

function judgeReply(body: ChatBody): FakeReply {
  const text = promptText(body);
  const negative = text.includes("(negative case)");
  const returned = /# Return value \(JSON\)\n(.*)/.exec(text)?.[1] ?? "";
  const succeeded = returned.includes('"success":true');
  const verdict = negative === succeeded ? "WARNING" : "PASS";
  return json({
    analysis: `success=${succeeded}, negative=${negative}`,
    verdict,
    error_reason: verdict === "PASS" ? "No error" : "negative case accepted or positive case refused",
  });
}

export function stageReply(
  stage: string | null,
  body: ChatBody,
  options: PipelineScriptOptions,
  envs: SampleEnv[],
): FakeReply {
  const text = promptText(body);
  const env = options.pick?.(text) ?? envs[0]!;
  switch (stage) {
    case "judge":
      return json({
        analysis: "needs a stateful system",
        stateful: !(options.statelessWord && text.includes(options.statelessWord)),
      });
    case "topic": {
      const low = options.lowScoreWord && text.includes(options.lowScoreWord);
      return json({
        analysis: "a desk system",
        summary: env.summary,
        domain: env.domain,
        introduction: env.introduction,
        usefulness: low ? 3 : 8,
        modelability: low ? 4 : 8,
      });
    }
    case "state":
      return json({ analysis: "entities", domain: env.domain, entities: env.entities, rules: env.rules });
    case "state_code":
      return {
        content: `${JSON.stringify({ class_name: env.className })}\n\`\`\`python\n${env.stateCode}\n\`\`\``,
      };
    case "operations":
      return json({
        analysis: "ops",
        operations: env.operations.map((o) => ({
          name: o.operation_name,
          description: o.operation_description,
          type: o.operation_type,
        })),
      });
    case "methods": {
      const name = /^name: (\w+)$/m.exec(text)?.[1] ?? "";
      return {
        content: `# Analysis\nwrite ${name}\n# Code\n\`\`\`python\n${env.methods[name] ?? `def ${name}(self):\n    return {"success": False, "error": "unknown"}\n`}\`\`\``,
      };
    }
    case "test_state":
      return json(env.initialState);
    case "tester":
      return testerReply(env, body);
    case "judge_call":
      return judgeReply(body);
    default:
      return { status: 400, message: `fake: no script for stage ${stage}` };
  }
}

export function createPipelineScript(envs: SampleEnv[], options: PipelineScriptOptions = {}): Script {
  return (body) => stageReply(stageOf(body), body, options, envs);
}

/** Layers faults over a script: return a reply to inject one, or null to fall through. */
export function withFaults(
  script: Script,
  fault: (body: ChatBody, stage: string | null, index: number) => FakeReply | null,
): Script {
  return (body, index) => fault(body, stageOf(body), index) ?? script(body, index);
}
