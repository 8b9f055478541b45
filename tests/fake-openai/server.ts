/**
 * TEST ONLY. A real OpenAI-compatible HTTP server (node:http) speaking /v1/chat/completions
 * (including tool calls) and /v1/embeddings, answering from a per-test script. It records every
 * request, so tests can count what was paid for, and can inject faults: status codes with
 * Retry-After, hangs (client timeouts), malformed bodies and fixed latency.
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

export type FakeReply =
  | { content?: string | null; toolCalls?: { name: string; arguments: unknown }[]; usage?: { prompt: number; completion: number } }
  | { status: number; headers?: Record<string, string>; message?: string }
  | { hang: true }
  | { raw: string };

/** `respondedAt` is set once the full reply was written: a request killed mid-flight has none. */
export type RecordedRequest = { path: string; body: unknown; at: number; reply: FakeReply | null; respondedAt?: number };

export type Script = (body: ChatBody, index: number) => FakeReply | Promise<FakeReply>;
export type EmbedScript = (input: string[]) => number[][];

export type FakeOpenAi = {
  url: string;
  requests: RecordedRequest[];
  chatRequests: () => RecordedRequest[];
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

let callSeq = 0;

function completion(model: string, reply: Extract<FakeReply, { content?: unknown }>) {
  const toolCalls = reply.toolCalls?.map((c) => ({
    id: `call_${++callSeq}`,
    type: "function",
    function: { name: c.name, arguments: typeof c.arguments === "string" ? c.arguments : JSON.stringify(c.arguments) },
  }));
  const usage = reply.usage ?? { prompt: 100, completion: 50 };
  return {
    id: `chatcmpl-${++callSeq}`,
    object: "chat.completion",
    created: Math.floor(Date.now() / 1000),
    model,
    choices: [{ index: 0, finish_reason: toolCalls?.length ? "tool_calls" : "stop", message: { role: "assistant", content: reply.content ?? null, ...(toolCalls?.length ? { tool_calls: toolCalls } : {}) } }],
    usage: { prompt_tokens: usage.prompt, completion_tokens: usage.completion, total_tokens: usage.prompt + usage.completion },
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

export async function startFakeOpenAi(options: { script?: Script; latencyMs?: number; port?: number } = {}): Promise<FakeOpenAi> {
  let script: Script = options.script ?? (() => ({ content: "ok" }));
  let embed: EmbedScript = (input) => input.map((t) => trigramEmbedding(t));
  const requests: RecordedRequest[] = [];
  const sockets = new Set<Socket>();
  let chatIndex = 0;

  const server = createServer((req, res) => {
    void (async () => {
      const body = await readBody(req).catch(() => null);
      const record: RecordedRequest = { path: req.url ?? "", body, at: Date.now(), reply: null };
      requests.push(record);
      res.on("finish", () => (record.respondedAt = Date.now()));
      if (options.latencyMs) await new Promise((r) => setTimeout(r, options.latencyMs));
      if (req.url?.endsWith("/embeddings")) {
        const input = (body as { input: string | string[] }).input;
        const list = Array.isArray(input) ? input : [input];
        return send(res, 200, { object: "list", model: (body as { model: string }).model, data: embed(list).map((embedding, index) => ({ object: "embedding", index, embedding })), usage: { prompt_tokens: list.length * 10, total_tokens: list.length * 10 } });
      }
      if (!req.url?.endsWith("/chat/completions")) return send(res, 404, { error: { message: `no route ${req.url}` } });
      const chat = body as ChatBody;
      const reply = await script(chat, chatIndex++);
      record.reply = reply;
      if ("hang" in reply) return; // the client's timeout fires; the socket is destroyed on close()
      if ("raw" in reply) {
        res.writeHead(200, { "content-type": "application/json" });
        return res.end(reply.raw);
      }
      if ("status" in reply) return send(res, reply.status, { error: { message: reply.message ?? `scripted ${reply.status}`, type: "fake" } }, reply.headers);
      send(res, 200, completion(chat.model, reply));
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
export const lastUserText = (body: ChatBody) => [...body.messages].reverse().find((m) => m.role === "user")?.content ?? "";
/** The last user message that is not a re-ask: the prompt proper. */
export const promptText = (body: ChatBody) =>
  [...body.messages].reverse().find((m) => m.role === "user" && !m.content?.startsWith("Your previous answer could not be used"))?.content ?? "";
export const stageOf = (body: ChatBody) => /\[stage:([a-z_]+)\]/.exec(systemText(body))?.[1] ?? null;
