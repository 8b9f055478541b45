/**
 * Bounded fuzz over every API route and every server action: malformed input — NUL
 * bytes, lone surrogates, bytes that are not UTF-8, wrong content types, broken multipart, deep
 * nesting, bodies that are not what the handler reads (a number, null, an array), references to
 * values no action takes, wrong shapes, seeded random values, and well-formed input naming rows that
 * do not exist — gets a 4xx with a message (an action may instead answer `{ ok: false }` with one),
 * never a 5xx or an internal error, and changes nothing: not a row count, not a column
 * (e2e/db-state.ts). The cases live in e2e/bad-input.ts, checked against every route and action.
 */
import type { APIRequestContext, APIResponse } from "@playwright/test";
import { actionResult, serverActions, type ActionRef } from "./actions";
import {
  apiRoutes,
  type BadRequest,
  deep,
  NOT_UTF8,
  ROUTE_CASES,
  UNKNOWN_ID,
  WELL_FORMED_CALLS,
} from "./bad-input";
import { createEnvironment } from "../prisma/seed/factories";
import { defaultProjectId, deleteEnvironments, e2eDb, unique } from "./db";
import { dbState, settledDbState } from "./db-state";
import { expect, test } from "./fixtures";

test.setTimeout(300_000);

const created: string[] = [];
test.afterAll(() => deleteEnvironments(created));

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

async function expectRefused(label: string, res: APIResponse) {
  const text = await res.text();
  expect(res.status(), `${label}: ${text.slice(0, 300)}`).toBeGreaterThanOrEqual(400);
  expect(res.status(), `${label}: ${text.slice(0, 300)}`).toBeLessThan(500);
  const message = (JSON.parse(text) as { error?: { message?: string } }).error?.message;
  expect(message, label).toBeTruthy();
}

/** Bodies go as bytes: Playwright would JSON-encode a string that is not JSON under application/json. */
function send(request: APIRequestContext, method: string, url: string, c: BadRequest) {
  if (c.multipart) return request.fetch(url, { method, multipart: c.multipart });
  const data = typeof c.body === "string" ? Buffer.from(c.body) : c.body;
  return request.fetch(url, { method, headers: c.headers, data });
}

test("bad input to every API route gets a 4xx with a message and changes nothing", async ({ request }) => {
  // A new route fails here until its bad input is listed in e2e/bad-input.ts.
  expect(Object.keys(ROUTE_CASES).sort()).toEqual(apiRoutes().sort());
  // Something the caller could undo, so a body misread as "undo" would show as a change.
  const env = await createEnvironment(e2eDb(), await defaultProjectId(), {
    status: "IN_REVIEW",
    name: unique("fuzz-undo"),
  });
  created.push(env.id);
  const decided = await request.post("/api/review/decisions", {
    data: {
      kind: "environment",
      id: env.id,
      versionId: env.currentVersionId,
      decision: "REJECT",
      reason: "fuzz",
    },
  });
  expect(decided.status(), await decided.text()).toBe(201);
  const before = await settledDbState();
  for (const [route, cases] of Object.entries(ROUTE_CASES)) {
    const [method = "", pattern = ""] = route.split(" ");
    expect(cases.length, route).toBeGreaterThan(0);
    const url = pattern.replace(/\[[^\]]+\]/g, UNKNOWN_ID);
    for (const c of cases)
      await expectRefused(`${route} ${c.label}`, await send(request, method, c.url ?? url, c));
  }
  for (const url of ["/environments/a%00b", "/scenarios/%ED%A0%80", "/runs/x%00/steps/y"])
    await expectRefused(`GET ${url}`, await request.get(url));
  // Broken UTF-8 in a query decodes to U+FFFD (the URL standard's lenient rule): an answer, not a 500.
  for (const url of ["/api/environments?q=%ED%A0%80", "/api/environments?domain=%E0%A4%A"])
    expect((await request.get(url)).status(), url).toBeLessThan(500);
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
  expect(await dbState()).toEqual(before);
});

/** Refused by proxy.ts before Next decodes them (Next would answer most of them with a 500). */
const REFUSED_BEFORE_THE_ACTION: { label: string; body: string | Buffer }[] = [
  ...[
    "not json",
    "[",
    deep(5000),
    `[{"id":"a\\u0000b","environmentId":"a\\u0000b","runId":"a\\u0000b","email":"a\\u0000@b"}]`,
    `[{"id":"\\ud800","environmentId":"\\udfff"}]`,
    `[{"args":${deep(200)}}]`,
    // Not an argument list.
    "1",
    "null",
    '"x"',
    "true",
    "{}",
    '{"0":{}}',
    // References to values no action takes (Map, promise, server function, blob, iterator, FormData).
    '["$Q1"]',
    '[{"id":"$@1"}]',
    '[{"id":"$h1"}]',
    '["$B1"]',
    '["$i"]',
    '["$K1"]',
  ].map((body) => ({ label: body.slice(0, 60), body })),
  { label: "not UTF-8", body: Buffer.concat([Buffer.from("["), NOT_UTF8, Buffer.from("]")]) },
];
const MULTIPART_REFUSED: Record<string, string>[] = [{ "0": "1" }, { x: "[{}]" }, { "0": '["$Q1"]' }];

async function expectNoInternalError(label: string, res: APIResponse) {
  const text = await res.text();
  const full = `${label}: ${res.status()} ${text.slice(0, 300)}`;
  expect(res.status(), full).toBeLessThan(500);
  if (res.status() >= 400) return expectRefused(label, res); // refused before the action
  const result = actionResult(text);
  expect(result, full).not.toBeNull(); // null: an uncaught error row
  expect(result?.ok, full).toBe(false);
  // Every action answers through runAction: one shape, { ok: false, error: { code, message, retryable } }.
  expect(result?.error, full).toMatchObject({
    code: expect.any(String),
    message: expect.stringMatching(/\S/),
    retryable: expect.any(Boolean),
  });
  expect(result?.error?.code, full).not.toBe("INTERNAL");
}

/** Well-formed arguments naming rows that do not exist: a refusal naming why, never INTERNAL. */
async function expectWellFormedRefused(action: ActionRef, call: (body: string) => Promise<APIResponse>) {
  const expected = WELL_FORMED_CALLS[action.name];
  if (!expected || "namesNoRow" in expected) return;
  const res = await call(JSON.stringify([expected.args]));
  const text = await res.text();
  const label = `${action.name} well-formed: ${res.status()} ${text.slice(0, 300)}`;
  expect(res.status(), label).toBe(200);
  const result = actionResult(text);
  if ("readsOnly" in expected) expect(result?.ok, label).toBe(true);
  else expect(result, label).toMatchObject({ ok: false, error: { code: expected.refusedWith } });
}

test("bad arguments to every server action get a 4xx or an { ok: false } with a message, never a 5xx, and change nothing", async ({
  request,
}) => {
  const actions = serverActions();
  // A new action fails here until e2e/bad-input.ts says what a well-formed call with unknown ids answers.
  expect(Object.keys(WELL_FORMED_CALLS).sort()).toEqual(actions.map((a) => a.name).sort());
  const before = await settledDbState();
  const next = random(1414);
  const wrong = [
    "[]",
    "[null]",
    "[{}]",
    "[1]",
    '["x"]',
    '[{"id":1,"environmentId":[],"runId":{}}]',
    ...Array.from({ length: 6 }, () => JSON.stringify([randomValue(next)])),
  ];
  for (const action of actions) {
    const headers = { "next-action": action.id, accept: "text/x-component" };
    const call = (body: string | Buffer) =>
      request.post(action.page, {
        headers: { ...headers, "content-type": "text/plain;charset=UTF-8" },
        data: body,
      });
    for (const { label, body } of REFUSED_BEFORE_THE_ACTION)
      await expectRefused(`${action.name} ${label}`, await call(body));
    for (const multipart of MULTIPART_REFUSED)
      await expectRefused(
        `${action.name} multipart ${JSON.stringify(multipart)}`,
        await request.post(action.page, { headers, multipart }),
      );
    if (action.name === "logoutAction") continue; // ignores its arguments (bad-input.ts)
    for (const body of wrong)
      await expectNoInternalError(`${action.name} ${body.slice(0, 80)}`, await call(body));
    await expectWellFormedRefused(action, call);
  }
  expect(await dbState()).toEqual(before);
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
