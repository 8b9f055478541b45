/**
 * Topic mining, step 1 (spec §2.2): does this task need a persistent, stateful, domain-specific
 * system? Unlike EnvScaler, a failed call or parse is an error (stored, retried when transient),
 * never a silent "NO".
 */
import { z } from "zod";
import { ok } from "../../core/result";
import { chatParsed, parseJsonWith } from "../../llm";
import { type JudgeOutput } from "../pipeline.schema";
import { type StageDeps, type StageResult, reasksFor, stageTag } from "./deps";

const SYSTEM = `${stageTag("judge")}
You filter tasks for building simulated tool environments. Keep a task only if ALL hold:
1. A live, persistent state exists that supports reads and explicit writes (create, update, delete, move, cancel...).
2. The task cannot be answered without inspecting or modifying that state.
3. The domain is a structured system (file system, orders, calendar, CRM, inventory, ticketing, projects...), not general knowledge.
4. The request is an actionable operation in that environment, not hypothetical.
Reject open-domain factual questions, chit-chat, weather, content creation, hypotheticals and standalone calculation. Be strict: any missing criterion means false.
Answer with one JSON object: {"analysis": "<short reasoning>", "stateful": true|false}`;

const AnswerSchema = z.object({ analysis: z.string(), stateful: z.boolean() });

export async function judgeTask(input: { task: string }, deps: StageDeps): StageResult<JudgeOutput> {
  const reply = await chatParsed(
    deps.llm,
    {
      model: deps.models.topic,
      temperature: 0,
      purpose: "judge stateful task",
      cacheSalt: deps.cacheSalt,
      messages: [
        { role: "system", content: SYSTEM },
        { role: "user", content: `Task:\n${input.task}` },
      ],
    },
    (r) => parseJsonWith(AnswerSchema, r.content),
    reasksFor(deps, "judge"),
  );
  if (!reply.ok) return reply;
  return ok(reply.value.value);
}
