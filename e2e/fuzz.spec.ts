/**
 * Bounded fuzz over every API route and every server action: malformed input — NUL
 * bytes, lone surrogates, broken encodings, wrong content types, broken multipart, deep nesting,
 * wrong shapes and seeded random values — gets a 4xx with a message (an action may instead answer
 * `{ ok: false }` with one), never a 5xx or an uncaught action error, and no row changes.
 */
import type { APIRequestContext } from "@playwright/test";
import { actionResult, serverActions } from "./actions";
import { e2eDb } from "./db";
import { expect, test } from "./fixtures";

test.setTimeout(300_000);

/** Exact row counts of every table the studio owns (pg-boss's own schema excluded). */
async function rowCounts(): Promise<Record<string, number>> {
  const tables = await e2eDb().$queryRaw<
    { name: string }[]
  >`select table_name as name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' and table_name <> '_prisma_migrations'`;
  const counts: Record<string, number> = {};
  for (const { name } of tables) {
    const [row] = await e2eDb().$queryRawUnsafe<{ n: bigint }[]>(`select count(*) as n from "${name}"`);
    counts[name] = Number(row?.n ?? -1);
  }
  return counts;
}

/** mulberry32: a seeded generator, so a failure reproduces. */
function random(seed: number) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ (t + t);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const NASTY = [
  "\u0000",
  "\ud800",
  "\udfff",
  '\'; drop table "User"; --',
  "../../etc/passwd",
  "%00",
  "\u202e",
  "x".repeat(5000),
  "",
  " ",
  "{{7*7}}",
  "<script>",
  "NaN",
];

function randomValue(next: () => number, depth = 0): unknown {
  const pick = <T>(xs: T[]): T => xs[Math.floor(next() * xs.length)] as T;
  const kind = depth > 4 ? Math.floor(next() * 4) : Math.floor(next() * 7);
  if (kind === 0) return pick(NASTY);
  if (kind === 1) return pick([0, -1, 1e308, -0.5, 2 ** 53 + 1]);
  if (kind === 2) return pick([true, false, null]);
  if (kind === 3) return `${pick(NASTY)}${Math.floor(next() * 1e6)}`;
  if (kind === 4) return Array.from({ length: Math.floor(next() * 4) }, () => randomValue(next, depth + 1));
  const keys = [
    "id",
    "environmentId",
    "scenarioId",
    "runId",
    "kind",
    "decision",
    "email",
    "role",
    "source",
    "args",
    "name",
    pick(NASTY),
  ];
  return Object.fromEntries(
    Array.from({ length: Math.floor(next() * 5) }, () => [pick(keys), randomValue(next, depth + 1)]),
  );
}

const deep = (n: number) => "[".repeat(n) + "]".repeat(n);

async function expectRefused(label: string, res: Awaited<ReturnType<APIRequestContext["get"]>>) {
  const text = await res.text();
  expect(res.status(), `${label}: ${text.slice(0, 300)}`).toBeGreaterThanOrEqual(400);
  expect(res.status(), `${label}: ${text.slice(0, 300)}`).toBeLessThan(500);
  const message = (JSON.parse(text) as { error?: { message?: string } }).error?.message;
  expect(message, label).toBeTruthy();
}

test("malformed input to every API route gets a 4xx with a message and changes nothing", async ({
  request,
}) => {
  const before = await rowCounts();
  const bad = ["a%00b", "%ED%A0%80", "%E0%A4%A", "x%00"];
  const gets = [
    ...bad.flatMap((b) => [
      `/api/runs/${b}`,
      `/api/runs/${b}/summary`,
      `/api/datasets/${b}/exports`,
      `/api/exports/${b}/download`,
    ]),
    ...["a%00b", "x%00"].flatMap((b) => [`/api/environments?q=${b}`, `/api/environments?domain=${b}`]),
    "/api/environments?page=-1",
    "/api/environments?pageSize=100000",
    "/api/environments?status=NOPE",
    "/api/runs/does-not-exist",
    "/api/runs/does-not-exist/summary",
    "/api/exports/does-not-exist/download?file=../../../etc/passwd",
    "/environments/a%00b",
    "/scenarios/%ED%A0%80",
    "/runs/x%00/steps/y",
    "/api/review/preview?kind=nope&id=x",
    "/api/review/preview?kind=environment&id=a%00b",
    "/api/review/preview?kind=environment",
  ];
  for (const url of gets) await expectRefused(`GET ${url}`, await request.get(url));
  // Broken UTF-8 in a query decodes to U+FFFD (the URL standard's lenient rule): an answer, not a 500.
  for (const url of ["/api/environments?q=%ED%A0%80", "/api/environments?domain=%E0%A4%A"])
    expect((await request.get(url)).status(), url).toBeLessThan(500);

  const jsonBodies = [
    "not json",
    "{",
    deep(5000),
    '{"kind":"environment","id":"a\\u0000b","decision":"ACCEPT","reason":"r"}',
    '{"kind":"environment","id":"\\ud800","decision":"ACCEPT","reason":"r"}',
    "[]",
    "null",
    '{"kind":"nope"}',
    '{"kind":"environment","id":1}',
  ];
  for (const url of ["/api/review/decisions", "/api/review/claims", "/api/review/claims/release"]) {
    for (const method of ["post", "delete"] as const) {
      if (!url.endsWith("/claims") && method === "delete") continue;
      await expectRefused(
        `${method} ${url} text/plain`,
        await request[method](url, {
          headers: { "content-type": "text/plain" },
          data: '{"kind":"environment","id":"x"}',
        }),
      );
      for (const body of jsonBodies)
        await expectRefused(
          `${method} ${url} ${body.slice(0, 40)}`,
          await request[method](url, { headers: { "content-type": "application/json" }, data: body }),
        );
    }
  }
  // Undo takes no arguments: only bodies it cannot read are fed to it (a readable one would undo).
  await expectRefused(
    "post /api/review/undo text/plain",
    await request.post("/api/review/undo", { headers: { "content-type": "text/plain" }, data: "{}" }),
  );
  for (const body of ["not json", "{", deep(5000), '"\ud800"'])
    await expectRefused(
      `post /api/review/undo ${body.slice(0, 40)}`,
      await request.post("/api/review/undo", { headers: { "content-type": "application/json" }, data: body }),
    );

  const imports: [string, Record<string, string>, string][] = [
    ["text/plain", { "content-type": "text/plain" }, "x"],
    [
      "broken multipart",
      { "content-type": "multipart/form-data; boundary=zzz" },
      '--zzz\r\nContent-Disposition: form-data; name="files"; filename="a.json"\r\n\r\n{',
    ],
    ["no boundary", { "content-type": "multipart/form-data" }, "garbage"],
    ["urlencoded", { "content-type": "application/x-www-form-urlencoded" }, "files=x"],
  ];
  for (const [label, headers, data] of imports)
    await expectRefused(`POST /api/imports ${label}`, await request.post("/api/imports", { headers, data }));
  await expectRefused(
    "POST /api/imports no files",
    await request.post("/api/imports", { multipart: { className: "X" } }),
  );
  for (const text of ['{"x":{"env_id":"x\\u0000"}}', '{"x":{"env_id":"\\ud800"}}', deep(5000)]) {
    const res = await request.post("/api/imports", {
      multipart: {
        files: { name: "env_metadata.json", mimeType: "application/json", buffer: Buffer.from(text) },
      },
    });
    // A refused file is data for the reviewer: 200 with ok: false and a located message.
    if (res.status() === 200)
      expect(await res.json(), text.slice(0, 40)).toMatchObject({
        ok: false,
        error: { message: expect.any(String) as unknown },
      });
    else await expectRefused(`POST /api/imports ${text.slice(0, 40)}`, res);
  }

  expect(await rowCounts()).toEqual(before);
});

test("malformed arguments to every server action get a 4xx or an { ok: false } with a message, never a 5xx, and change nothing", async ({
  request,
}) => {
  const actions = serverActions().filter((a) => a.name !== "logoutAction"); // takes no input
  expect(actions.map((a) => a.name)).toEqual(
    expect.arrayContaining([
      "runToolAction",
      "runBenchAction",
      "analyzeSourceAction",
      "createUserAction",
      "loginAction",
    ]),
  );
  const before = await rowCounts();
  const malformed = [
    "not json",
    "[",
    deep(5000),
    `[{"id":"a\\u0000b","environmentId":"a\\u0000b","runId":"a\\u0000b","email":"a\\u0000@b"}]`,
    `[{"id":"\\ud800","environmentId":"\\udfff"}]`,
    `[{"args":${deep(200)}}]`,
  ];
  const next = random(1414);
  const wrong = [
    "[]",
    "[null]",
    "[{}]",
    "[1]",
    '["x"]',
    '[{"id":1,"environmentId":[],"runId":{}}]',
    "{}",
    ...Array.from({ length: 6 }, () => JSON.stringify([randomValue(next)])),
  ];
  for (const action of actions) {
    const call = (body: string) =>
      request.post(action.page, {
        headers: {
          "next-action": action.id,
          "content-type": "text/plain;charset=UTF-8",
          accept: "text/x-component",
        },
        data: body,
      });
    for (const body of malformed)
      await expectRefused(`${action.name} ${body.slice(0, 50)}`, await call(body));
    for (const body of wrong) {
      const res = await call(body);
      const text = await res.text();
      const label = `${action.name} ${body.slice(0, 80)}: ${res.status()} ${text.slice(0, 300)}`;
      expect(res.status(), label).toBeLessThan(500);
      if (res.status() >= 400) continue; // refused before the action, with a message (checked above)
      const result = actionResult(text);
      expect(result, label).not.toBeNull(); // null: an uncaught error row
      expect(result?.ok, label).toBe(false);
      // Every action answers through runAction: one shape, { ok: false, error: { code, message, retryable } }.
      expect(result?.error, label).toMatchObject({
        code: expect.any(String),
        message: expect.stringMatching(/\S/),
        retryable: expect.any(Boolean),
      });
    }
  }
  expect(await rowCounts()).toEqual(before);
});

test("pages given odd, repeated or malformed parameters render or say not found, never an error page", async ({
  page,
}) => {
  const env = await e2eDb().environment.findFirstOrThrow({
    where: { origin: "SAMPLE", currentVersionId: { not: null } },
  });
  const scenario = await e2eDb().scenario.findFirstOrThrow({ where: { environmentId: env.id } });
  const urls = [
    `/environments/${env.id}/quality?version=a&version=b`,
    `/environments/${env.id}/quality?version=nope`,
    `/environments/${env.id}/versions?a=abc&b=1e20`,
    `/environments/${env.id}/versions?a=-1&a=2&b=`,
    `/scenarios/${scenario.id}?trajectory=a&trajectory=b`,
    `/scenarios/${scenario.id}?trajectory=nope`,
    "/environments?page=-5&pageSize=x&status=NOPE&q=%F0%9F",
    "/scenarios?proof=zzz&proof=yyy",
    "/review?kind=zzz&kind=yyy&status=%5B%5D",
    "/login?next=a&next=/%5Cevil.example",
    "/runs/nope",
    "/trajectories/nope",
    "/datasets/nope",
    "/environments/nope/edit",
    "/runs/nope/steps/zzz",
  ];
  for (const url of urls) {
    await page.goto(url);
    await expect(page.getByRole("navigation", { name: "Main" }), url).toBeVisible();
    await expect(page.getByText("This page could not be loaded"), url).toHaveCount(0);
  }
});
