/**
 * Topic mining, step 2 (spec §2.3): the most plausible environment a task lives in, with
 * usefulness and modelability scores (1–10). Scores are validated integers; a missing score is a
 * parse error shown to the model, not a None that silently fails the threshold later.
 */
import { z } from "zod";
import { ok } from "../../core/result";
import { chatParsed, parseJsonWith } from "../../llm";
import type { Topic } from "../pipeline.schema";
import { type StageDeps, type StageResult, reasksFor, stageTag } from "./deps";

const SYSTEM = `${stageTag("topic")}
You are a task analyst. Given a user task, pick the single most plausible stateful, domain-specific environment in which it naturally occurs. Scope it neither too broad nor narrowed to this one task, so that similar tasks also fit. If several are equally plausible, choose one.
Answer with one JSON object:
{"analysis": "<entities, constraints and relations the task implies>",
 "summary": "<short label, e.g. 'Linux filesystem' or 'E-commerce order management system'>",
 "domain": "<the area it belongs to in one or two lowercase words, e.g. 'operating systems', 'e-commerce', 'healthcare'>",
 "introduction": "<about 3 sentences describing the environment itself: structure, the state it keeps, typical operations, scope; do not mention the task>",
 "usefulness": <1-10, breadth of real-world applicability>,
 "modelability": <1-10, how easily it is modelled as one Python class whose attributes are the state and whose methods read and write it>}`;

const EXAMPLE_USER = "Task:\nDelete every file whose name contains 'draft' under /home/ana.";
const EXAMPLE_ASSISTANT = JSON.stringify({
  analysis: "Files and directories with names and parents; deletion changes the tree.",
  summary: "Linux filesystem",
  domain: "operating systems",
  introduction:
    "A hierarchical file system of directories and files with owners, sizes and timestamps. It keeps the tree and file metadata, and supports listing, searching, creating, moving and deleting entries. Paths are unique.",
  usefulness: 9,
  modelability: 8,
});

const AnswerSchema = z.object({
  analysis: z.string().default(""),
  summary: z.string().trim().min(1).max(120),
  domain: z.string().trim().max(80).optional().catch(undefined),
  introduction: z.string().trim().min(1),
  usefulness: z.coerce.number().int().min(1).max(10),
  modelability: z.coerce.number().int().min(1).max(10),
});

export async function inferTopic(input: { task: string }, deps: StageDeps): StageResult<Topic> {
  const reply = await chatParsed(
    deps.llm,
    {
      model: deps.models.topic,
      purpose: "infer environment topic",
      cacheSalt: deps.cacheSalt,
      messages: [
        { role: "system", content: SYSTEM },
        { role: "user", content: EXAMPLE_USER },
        { role: "assistant", content: EXAMPLE_ASSISTANT },
        { role: "user", content: `Task:\n${input.task}` },
      ],
    },
    (r) => parseJsonWith(AnswerSchema, r.content),
    reasksFor(deps, "topic"),
  );
  if (!reply.ok) return reply;
  return ok({ task: input.task, ...reply.value.value });
}

/** Direct start: a typed idea becomes a topic without mining (first line is the label). */
export function topicFromIdea(idea: string): Topic {
  const text = idea.trim();
  const firstLine = text.split("\n")[0]?.trim() ?? text;
  return {
    task: text,
    summary: firstLine.slice(0, 120),
    introduction: text,
    usefulness: 10,
    modelability: 10,
    analysis: "typed by a user (direct start)",
  };
}
