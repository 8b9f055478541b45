/**
 * TEST ONLY. A worker process for the global LLM limiter's test: sends `count` chat requests to the
 * fake endpoint through createGlobalLimiter on the given database, all at once, then prints "done".
 * It prints "ready" once connected and starts on a "go" line on stdin, so several workers start
 * their requests together.
 * Usage: tsx tests/llm-limiter-worker.ts <databaseUrl> <endpoint> <count> <concurrency> <rpm|-> <leaseMs> <tag>
 */
import { createDb } from "../lib/db";
import { createGlobalLimiter } from "../lib/llm/server/global-limiter";

const [databaseUrl, endpoint, count, concurrency, rpm, leaseMs, tag] = process.argv.slice(2);
if (!databaseUrl || !endpoint || !tag) throw new Error("usage: see the header");
const db = createDb(databaseUrl, 4);
const limiter = createGlobalLimiter(
  db,
  endpoint,
  { concurrency: Number(concurrency), requestsPerMinute: rpm === "-" ? null : Number(rpm) },
  { leaseMs: Number(leaseMs), pollMinMs: 10, pollMaxMs: 50 },
);
await db.$queryRaw`SELECT 1`;
console.log("ready");
await new Promise<void>((resolve) => process.stdin.once("data", () => resolve()));
process.stdin.destroy();
await Promise.all(
  Array.from({ length: Number(count) }, (_, i) =>
    limiter.run(async () => {
      const res = await fetch(`${endpoint}/chat/completions`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ model: "m", messages: [{ role: "user", content: `${tag} ${i}` }] }),
      });
      await res.text();
    }),
  ),
);
console.log("done");
await db.$disconnect();
