/**
 * TEST AND DEMO ONLY (demo/ serves the offline demo with it). A real OpenAI-compatible HTTP server (node:http) speaking /v1/chat/completions
 * (including tool calls) and /v1/embeddings, answering from a per-test script. It records every
 * request with the usage it reported, so tests can count what was paid for, and can inject faults
 * on either endpoint: status codes with Retry-After, hangs (client timeouts), malformed bodies,
 * billed answers without choices and fixed latency.
 */
import { type IncomingMessage, type ServerResponse, createServer } from "node:http";
import type { AddressInfo, Socket } from "node:net";

export type ChatBody = {
  model: string;
  messages: { role: string; content: string | null; tool_calls?: unknown[]; tool_call_id?: string }[];
  tools?: { type: "function"; function: { name: string; description?: string; parameters?: unknown } }[];
  tool_choice?: unknown;
  temperature?: number;
  response_format?: unknown;
};

/** A scripted failure: an HTTP error (with e.g. Retry-After), a hang (client timeout) or a garbled body. */
export type FakeFault =
  { status: number; headers?: Record<string, string>; message?: string } | { hang: true } | { raw: string };

export type FakeReply =
  | {
      content?: string | null;
      toolCalls?: { name: string; arguments: unknown }[];
      usage?: { prompt: number; completion: number };
    }
  /** HTTP 200 with `choices: []` and usage: billed, but nothing to use (some proxies and filters do this). */
  | { noChoices: true; usage?: { prompt: number; completion: number } }
  | FakeFault;

/** Embeddings answer: vectors (usage: 10 tokens per input unless given) or a fault. */
export type EmbedReply = number[][] | { vectors: number[][]; promptTokens?: number } | FakeFault;

/**
 * `respondedAt` is set once the full reply was written: a request killed mid-flight has none.
 * `usage` is what a successful reply reported, i.e. what a real endpoint would bill.
 */
export type RecordedRequest = {
  path: string;
  body: unknown;
  at: number;
  reply: FakeReply | null;
  respondedAt?: number;
  status?: number;
  usage?: { prompt: number; completion: number };
};

export type Script = (body: ChatBody, index: number) => FakeReply | Promise<FakeReply>;
export type EmbedScript = (input: string[], index: number, model: string) => EmbedReply | Promise<EmbedReply>;

export type FakeOpenAi = {
  url: string;
  requests: RecordedRequest[];
  chatRequests: () => RecordedRequest[];
  embeddingRequests: () => RecordedRequest[];
  setScript(script: Script): void;
  setEmbeddings(script: EmbedScript): void;
  close(): Promise<void>;
};

async function readBody(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString("utf8");
  return text ? (JSON.parse(text) as unknown) : {};
}

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  res.writeHead(status, { "content-type": "application/json", ...headers });
  res.end(JSON.stringify(body));
}

/** Answers with a scripted fault; false when the reply is not one. */
function sendFault(res: ServerResponse, reply: object): boolean {
  if ("hang" in reply) return true; // the client's timeout fires; the socket is destroyed on close()
  if ("raw" in reply && typeof reply.raw === "string") {
    res.writeHead(200, { "content-type": "application/json" });
    res.end(reply.raw);
    return true;
  }
  if ("status" in reply && typeof reply.status === "number") {
    const fault = reply as { status: number; headers?: Record<string, string>; message?: string };
    send(
      res,
      fault.status,
      { error: { message: fault.message ?? `scripted ${fault.status}`, type: "fake" } },
      fault.headers,
    );
    return true;
  }
  return false;
}

function embeddingsBody(model: string, reply: Exclude<EmbedReply, FakeFault>, inputs: number) {
  const vectors = Array.isArray(reply) ? reply : reply.vectors;
  const tokens = (!Array.isArray(reply) && reply.promptTokens) || inputs * 10;
  return {
    object: "list",
    model,
    data: vectors.map((embedding, index) => ({ object: "embedding", index, embedding })),
    usage: { prompt_tokens: tokens, total_tokens: tokens },
  };
}

let callSeq = 0;

type Answered = Exclude<FakeReply, FakeFault>;

function completion(model: string, reply: Answered) {
  if ("noChoices" in reply) return { ...completionBody(model, []), usage: wireUsage(reply.usage) };
  return answer(model, reply);
}

const wireUsage = (usage = { prompt: 100, completion: 50 }) => ({
  prompt_tokens: usage.prompt,
  completion_tokens: usage.completion,
  total_tokens: usage.prompt + usage.completion,
});

const completionBody = (model: string, choices: unknown[]) => ({
  id: `chatcmpl-${++callSeq}`,
  object: "chat.completion",
  created: Math.floor(Date.now() / 1000),
  model,
  choices,
});

function answer(model: string, reply: Extract<FakeReply, { content?: unknown }>) {
  const toolCalls = reply.toolCalls?.map((c) => ({
    id: `call_${++callSeq}`,
    type: "function",
    function: {
      name: c.name,
      arguments: typeof c.arguments === "string" ? c.arguments : JSON.stringify(c.arguments),
    },
  }));
  return {
    ...completionBody(model, [
      {
        index: 0,
        finish_reason: toolCalls?.length ? "tool_calls" : "stop",
        message: {
          role: "assistant",
          content: reply.content ?? null,
          ...(toolCalls?.length ? { tool_calls: toolCalls } : {}),
        },
      },
    ]),
    usage: wireUsage(reply.usage),
  };
}

/** A deterministic pseudo-embedding from character trigrams: similar texts get similar vectors. */
export function trigramEmbedding(text: string, dims = 64): number[] {
  const v = new Array<number>(dims).fill(0);
  const t = text.toLowerCase();
  for (let i = 0; i + 3 <= t.length; i += 1) {
    let h = 0;
    for (const ch of t.slice(i, i + 3)) h = (h * 31 + ch.charCodeAt(0)) % dims;
    v[h] = (v[h] ?? 0) + 1;
  }
  const norm = Math.sqrt(v.reduce((a, x) => a + x * x, 0)) || 1;
  return v.map((x) => x / norm);
}

/** What GET /v1/models lists unless a test says otherwise. */
export const FAKE_MODELS = ["gpt-4.1", "gpt-4.1-mini", "test-model"];

export async function startFakeOpenAi(
  options: { script?: Script; latencyMs?: number; port?: number; models?: string[] } = {},
): Promise<FakeOpenAi> {
  let script: Script = options.script ?? (() => ({ content: "ok" }));
  let embed: EmbedScript = (input) => input.map((t) => trigramEmbedding(t));
  const requests: RecordedRequest[] = [];
  const sockets = new Set<Socket>();
  let chatIndex = 0;
  let embedIndex = 0;

  const server = createServer((req, res) => {
    void (async () => {
      const body = await readBody(req).catch(() => null);
      const record: RecordedRequest = { path: req.url ?? "", body, at: Date.now(), reply: null };
      requests.push(record);
      res.on("finish", () => Object.assign(record, { respondedAt: Date.now(), status: res.statusCode }));
      if (options.latencyMs) await new Promise((r) => setTimeout(r, options.latencyMs));
      if (req.url?.endsWith("/embeddings")) {
        const { input, model } = body as { input: string | string[]; model: string };
        const list = Array.isArray(input) ? input : [input];
        const reply = await embed(list, embedIndex++, model);
        if (sendFault(res, reply)) return;
        const answer = embeddingsBody(model, reply as Exclude<EmbedReply, FakeFault>, list.length);
        record.usage = { prompt: answer.usage.prompt_tokens, completion: 0 };
        return send(res, 200, answer);
      }
      if (req.method === "GET" && req.url?.endsWith("/models"))
        return send(res, 200, {
          object: "list",
          data: (options.models ?? FAKE_MODELS).map((id) => ({ id, object: "model", owned_by: "fake" })),
        });
      if (!req.url?.endsWith("/chat/completions"))
        return send(res, 404, { error: { message: `no route ${req.url}` } });
      const chat = body as ChatBody;
      const reply = await script(chat, chatIndex++);
      record.reply = reply;
      if (sendFault(res, reply)) return;
      const answered = completion(chat.model, reply as Answered);
      record.usage = { prompt: answered.usage.prompt_tokens, completion: answered.usage.completion_tokens };
      send(res, 200, answered);
    })().catch((e: unknown) => send(res, 500, { error: { message: String(e) } }));
  });
  server.on("connection", (s) => {
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    chatRequests: () => requests.filter((r) => r.path.endsWith("/chat/completions")),
    embeddingRequests: () => requests.filter((r) => r.path.endsWith("/embeddings")),
    setScript: (s) => void (script = s),
    setEmbeddings: (s) => void (embed = s),
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** The text of the system message (stage prompts start with a `[stage:<id>]` tag). */
export const systemText = (body: ChatBody) => body.messages.find((m) => m.role === "system")?.content ?? "";
export const lastUserText = (body: ChatBody) =>
  [...body.messages].reverse().find((m) => m.role === "user")?.content ?? "";
/** The last user message that is not a re-ask: the prompt proper. */
export const promptText = (body: ChatBody) =>
  [...body.messages]
    .reverse()
    .find((m) => m.role === "user" && !m.content?.startsWith("Your previous answer could not be used"))
    ?.content ?? "";
export const stageOf = (body: ChatBody) => /\[stage:([a-z_]+)\]/.exec(systemText(body))?.[1] ?? null;
