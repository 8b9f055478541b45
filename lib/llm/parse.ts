/**
 * Structured answers from free text: every LLM output goes through a parser returning a Result,
 * run inside the client call (a reply is cached only when its parser accepts it), and a failed
 * parse is shown to the model ("your answer could not be used because …") for a bounded number of
 * re-asks. Parsers remove prefixes and fences exactly — never character sets
 * (EnvScaler's `strip("- Entity: ")` mangled names; spec §12.1).
 */
import type { z } from "zod";
import { type Result, err, ok } from "../core/result";
import type { LlmClient, Parser } from "./client";
import type { ChatMessage, ChatRequest, ChatResult, LlmError, Usage } from "./llm.schema";
import { formatZodIssues } from "../core/zod-issues";

export type { Parser } from "./client";

export type ParsedReply<T> = { value: T; replies: ChatResult[]; reasks: number };

export const DEFAULT_MAX_REASKS = 2;

export function reaskMessage(problem: string): string {
  return `Your previous answer could not be used: ${problem}\nReply again, following the required output format exactly.`;
}

/**
 * Asks; the parser judges the reply inside the call (so only accepted replies are cached). A
 * rejected reply is shown to the model with the reason ("could not be used because …") for at
 * most `maxReasks` re-asks; then the step fails with the last reason.
 */
export async function chatParsed<T>(
  llm: LlmClient,
  request: ChatRequest,
  parse: Parser<T>,
  maxReasks = DEFAULT_MAX_REASKS,
): Promise<Result<ParsedReply<T>, LlmError>> {
  let messages: ChatMessage[] = request.messages;
  const replies: ChatResult[] = [];
  for (let reask = 0; ; reask += 1) {
    const answer = await llm.ask(
      {
        ...request,
        messages,
        purpose: reask ? `${request.purpose ?? "chat"} (re-ask ${reask})` : request.purpose,
      },
      parse,
    );
    if (!answer.ok) return answer;
    const { reply, verdict } = answer.value;
    replies.push(reply);
    if (verdict.ok) return ok({ value: verdict.value, replies, reasks: reask });
    if (reask >= maxReasks) {
      return err({
        code: "PARSE_FAILED",
        message: `the model's answer did not parse after ${reask + 1} tries: ${verdict.error}`,
        retryable: false,
      });
    }
    const assistant: ChatMessage = {
      role: "assistant",
      content: reply.content,
      ...(reply.toolCalls.length ? { toolCalls: reply.toolCalls } : {}),
    };
    const followUps: ChatMessage[] = reply.toolCalls.map((c) => ({
      role: "tool",
      toolCallId: c.id,
      content: JSON.stringify({ error: verdict.error }),
    }));
    messages = [...messages, assistant, ...followUps, { role: "user", content: reaskMessage(verdict.error) }];
  }
}

export const sumUsage = (replies: { usage: Usage; cached: boolean }[]): Usage =>
  replies.reduce(
    (a, r) => ({
      promptTokens: a.promptTokens + r.usage.promptTokens,
      completionTokens: a.completionTokens + r.usage.completionTokens,
    }),
    { promptTokens: 0, completionTokens: 0 },
  );

/** Drops a reasoning model's inline thoughts (`…</think>`) before parsing. */
export const stripThinking = (text: string) => {
  const end = text.lastIndexOf("</think>");
  return end >= 0 ? text.slice(end + "</think>".length) : text;
};

/** The first top-level JSON object in the text (fenced or bare), parsed. */
export function extractJsonObject(text: string): Result<unknown, string> {
  const body = stripThinking(text);
  const fenced = /```(?:json)?[ \t]*\n([\s\S]*?)\n?```/.exec(body);
  const candidate = fenced?.[1] ?? sliceBalanced(body);
  if (!candidate) return err("no JSON object found in the answer");
  try {
    return ok(JSON.parse(candidate));
  } catch (e) {
    return err(`invalid JSON: ${e instanceof Error ? e.message : String(e)}`);
  }
}

function sliceBalanced(text: string): string | null {
  const start = text.indexOf("{");
  if (start < 0) return null;
  let depth = 0;
  let inString = false;
  for (let i = start; i < text.length; i += 1) {
    const ch = text[i];
    if (inString) {
      if (ch === "\\") i += 1;
      else if (ch === '"') inString = false;
    } else if (ch === '"') inString = true;
    else if (ch === "{") depth += 1;
    else if (ch === "}" && --depth === 0) return text.slice(start, i + 1);
  }
  return null;
}

/** JSON object → zod, with the zod issues phrased for the model. */
export function parseJsonWith<S extends z.ZodType>(
  schema: S,
  text: string | null,
): Result<z.infer<S>, string> {
  if (!text) return err("the answer was empty");
  const json = extractJsonObject(text);
  if (!json.ok) return json;
  const parsed = schema.safeParse(json.value);
  if (parsed.success) return ok(parsed.data);
  return err(formatZodIssues(parsed.error, { root: "answer" }));
}

/** The last fenced Python block (models often show a draft first). */
export function extractPythonBlock(text: string | null): Result<string, string> {
  if (!text) return err("the answer was empty");
  const blocks = [...stripThinking(text).matchAll(/```(?:python|py)?[ \t]*\n([\s\S]*?)```/g)].map(
    (m) => m[1] ?? "",
  );
  const code = blocks.at(-1)?.replace(/\s+$/, "");
  return code ? ok(code + "\n") : err("no ```python fenced code block found in the answer");
}

/** Text under a `# Header` line, up to the next `# ` header (exact header match, case-insensitive). */
export function extractSection(text: string, header: string): string | null {
  const lines = stripThinking(text).split("\n");
  const start = lines.findIndex((l) => l.trim().toLowerCase() === `# ${header.toLowerCase()}`);
  if (start < 0) return null;
  const rest = lines.slice(start + 1);
  const end = rest.findIndex((l) => /^# \S/.test(l));
  return (end < 0 ? rest : rest.slice(0, end)).join("\n").trim();
}
