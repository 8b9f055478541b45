/**
 * The bad input of e2e/fuzz.spec.ts, per API route and per server action. Both lists are checked
 * against what exists — the route files under app/api and the build's action manifest — so a new
 * route or action fails the fuzz until its bad input is written down here.
 */
import fs from "node:fs";
import path from "node:path";
import { E2E_ADMIN } from "../playwright.config";

export const UNKNOWN_ID = "does-not-exist";

export type BadRequest = {
  label: string;
  /** Default: the route's path with each `[param]` replaced by UNKNOWN_ID. */
  url?: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  multipart?: Record<string, string | { name: string; mimeType: string; buffer: Buffer }>;
};

const HTTP_METHODS = /export\s+(?:const|async\s+function|function)\s+(GET|POST|PUT|PATCH|DELETE)\b/g;

/** `METHOD /api/path/[param]` for every handler the app exports (read from the route files). */
export function apiRoutes(appDir = path.resolve("app")): string[] {
  const files = (fs.readdirSync(path.join(appDir, "api"), { recursive: true }) as string[]).filter(
    (f) => path.basename(f) === "route.ts",
  );
  return files.flatMap((file) => {
    const route = `/api/${path.dirname(file)}`.replaceAll(path.sep, "/").replace(/\/\.$/, "");
    const source = fs.readFileSync(path.join(appDir, "api", file), "utf8");
    return [...source.matchAll(HTTP_METHODS)].map((m) => `${m[1]} ${route}`);
  });
}

export const deep = (n: number) => "[".repeat(n) + "]".repeat(n);

const json = (label: string, body: string | Buffer): BadRequest => ({
  label,
  headers: { "content-type": "application/json" },
  body,
});

/** `{"kind":"environment","id":"<bytes FF FE>"}`: not UTF-8, which a lenient decoder turns into U+FFFD. */
export const NOT_UTF8 = Buffer.concat([
  Buffer.from('{"kind":"environment","id":"'),
  Buffer.from([0xff, 0xfe]),
  Buffer.from('"}'),
]);

/** No JSON write route can read these. */
const UNREADABLE: BadRequest[] = [
  { label: "text/plain", headers: { "content-type": "text/plain" }, body: '{"kind":"environment","id":"x"}' },
  json("not json", "not json"),
  json("truncated", "{"),
  json("nested 5000 deep", deep(5000)),
  json("a NUL", '{"kind":"environment","id":"a\\u0000b","decision":"ACCEPT","reason":"r"}'),
  json("a lone surrogate", '{"kind":"environment","id":"\\ud800","decision":"ACCEPT","reason":"r"}'),
  json("invalid UTF-8", NOT_UTF8),
];
const NOT_AN_OBJECT = ["null", "[]", "1", '"x"', "true"].map((b) => json(`the body ${b}`, b));

/** Well-formed review items that do not exist, and shapes that are not items. */
const ITEMS: BadRequest[] = [
  ...["environment", "scenario", "trajectory"].map((kind) =>
    json(`an unknown ${kind}`, JSON.stringify({ kind, id: UNKNOWN_ID })),
  ),
  json("an unknown kind", '{"kind":"nope","id":"x"}'),
  json("a numeric id", '{"kind":"environment","id":1}'),
];
const CLAIM_CASES = [...UNREADABLE, ...NOT_AN_OBJECT, ...ITEMS];

const BAD_ID_SEGMENTS = ["a%00b", "%ED%A0%80", "%E0%A4%A", "x%00", UNKNOWN_ID];
const byId = (template: string) =>
  BAD_ID_SEGMENTS.map((id) => ({ label: `id ${id}`, url: template.replace("[id]", id) }));

/** Bulk decisions: bodies no bulk operation reads (an unknown item is a skipped item, not an error). */
const ONE_ITEM = { mode: "items", items: [{ kind: "environment", id: UNKNOWN_ID, versionId: UNKNOWN_ID }] };
const BULK_CASES: BadRequest[] = [
  ...UNREADABLE,
  ...NOT_AN_OBJECT,
  json("an empty selection", JSON.stringify({ selection: { mode: "items", items: [] } })),
  json("an unknown selection mode", JSON.stringify({ selection: { mode: "everything" } })),
  json("a filter without its time", JSON.stringify({ selection: { mode: "filter", filter: {} } })),
];
const rowsOf = (version: string, scenario?: string) =>
  `/api/dataset-versions/${version}/rows${scenario === undefined ? "" : `/${scenario}`}`;

export const ROUTE_CASES: Record<string, BadRequest[]> = {
  "GET /api/health": [{ label: "a NUL in the query", url: "/api/health?x=%00" }],
  "GET /api/environments": [
    ...["a%00b", "x%00"].flatMap((b) => [
      { label: `q=${b}`, url: `/api/environments?q=${b}` },
      { label: `domain=${b}`, url: `/api/environments?domain=${b}` },
    ]),
    { label: "page=-1", url: "/api/environments?page=-1" },
    { label: "pageSize=100000", url: "/api/environments?pageSize=100000" },
    { label: "status=NOPE", url: "/api/environments?status=NOPE" },
  ],
  "GET /api/datasets/eligible-environments": [
    ...["a%00b", "x%00"].map((b) => ({ label: `q=${b}`, url: `/api/datasets/eligible-environments?q=${b}` })),
    { label: "page=0", url: "/api/datasets/eligible-environments?page=0" },
    { label: "page=two", url: "/api/datasets/eligible-environments?page=two" },
    { label: "q of 201 characters", url: `/api/datasets/eligible-environments?q=${"x".repeat(201)}` },
  ],
  "GET /api/runs/[id]": byId("/api/runs/[id]"),
  "GET /api/runs/[id]/summary": byId("/api/runs/[id]/summary"),
  "GET /api/datasets/[id]/exports": byId("/api/datasets/[id]/exports"),
  "GET /api/exports/[id]/download": [
    ...byId("/api/exports/[id]/download"),
    {
      label: "a path out of the folder",
      url: `/api/exports/${UNKNOWN_ID}/download?file=../../../etc/passwd`,
    },
  ],
  "GET /api/review/preview": [
    { label: "an unknown kind", url: "/api/review/preview?kind=nope&id=x" },
    { label: "no id", url: "/api/review/preview?kind=environment" },
    { label: "a NUL in the id", url: "/api/review/preview?kind=environment&id=a%00b" },
    ...["environment", "scenario", "trajectory"].map((kind) => ({
      label: `an unknown ${kind}`,
      url: `/api/review/preview?kind=${kind}&id=${UNKNOWN_ID}`,
    })),
  ],
  "POST /api/review/decisions": [
    ...CLAIM_CASES,
    json(
      "an unknown environment",
      JSON.stringify({ kind: "environment", id: UNKNOWN_ID, versionId: UNKNOWN_ID, decision: "ACCEPT" }),
    ),
    json(
      "a rejection without a reason",
      JSON.stringify({ kind: "scenario", id: UNKNOWN_ID, decision: "REJECT" }),
    ),
  ],
  "POST /api/review/claims": CLAIM_CASES,
  "DELETE /api/review/claims": CLAIM_CASES,
  "POST /api/review/claims/release": CLAIM_CASES,
  // Undo takes exactly `{}`: anything else must not be read as a request to undo.
  "POST /api/review/undo": [...UNREADABLE, ...NOT_AN_OBJECT, json("a stray field", '{"kind":"environment"}')],
  "POST /api/review/bulk/accept": BULK_CASES,
  "POST /api/review/bulk/reject": [
    ...BULK_CASES,
    json("no reason", JSON.stringify({ selection: ONE_ITEM })),
    json("a blank reason", JSON.stringify({ selection: ONE_ITEM, reason: "   " })),
  ],
  "POST /api/review/bulk/prove": BULK_CASES,
  "POST /api/review/bulk/dataset": [
    ...BULK_CASES,
    json("no dataset", JSON.stringify({ selection: ONE_ITEM })),
    json("an unknown dataset", JSON.stringify({ selection: ONE_ITEM, datasetId: UNKNOWN_ID })),
  ],
  "GET /api/dataset-versions/[id]/rows": [
    ...BAD_ID_SEGMENTS.map((id) => ({ label: `version ${id}`, url: rowsOf(id) })),
    { label: "page=0", url: `${rowsOf(UNKNOWN_ID)}?page=0` },
    { label: "pageSize=101", url: `${rowsOf(UNKNOWN_ID)}?pageSize=101` },
    { label: "a NUL in the search", url: `${rowsOf(UNKNOWN_ID)}?q=a%00b` },
  ],
  "GET /api/dataset-versions/[id]/rows/[scenarioId]": BAD_ID_SEGMENTS.flatMap((id) => [
    { label: `version ${id}`, url: rowsOf(id, UNKNOWN_ID) },
    { label: `scenario ${id}`, url: rowsOf(UNKNOWN_ID, id) },
  ]),
  "POST /api/imports": [
    { label: "text/plain", headers: { "content-type": "text/plain" }, body: "x" },
    {
      label: "broken multipart",
      headers: { "content-type": "multipart/form-data; boundary=zzz" },
      body: '--zzz\r\nContent-Disposition: form-data; name="files"; filename="a.json"\r\n\r\n{',
    },
    {
      label: "multipart without a boundary",
      headers: { "content-type": "multipart/form-data" },
      body: "garbage",
    },
    {
      label: "urlencoded",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "files=x",
    },
    { label: "no files", multipart: { className: "X" } },
  ],
};

/**
 * What a well-formed call that names rows that do not exist (or collides with one that does) must
 * answer: a refusal with this code and nothing written. Actions that name no existing row say why.
 */
export type WellFormedCall =
  | { args: unknown; refusedWith: "NOT_FOUND" | "CONFLICT" | "INVALID_INPUT" }
  | { args: unknown; readsOnly: true }
  | { namesNoRow: string };

const check = "def check_func(final_state):\n    return True\n";

export const WELL_FORMED_CALLS: Record<string, WellFormedCall> = {
  loginAction: {
    namesNoRow: "every checked sign-in is recorded (LoginAttempt), which is the throttle's input",
  },
  logoutAction: {
    namesNoRow: "it takes nothing: any argument is ignored and it only clears the caller's cookie",
  },
  startRunAction: { namesNoRow: "it starts a run from text the caller gives" },
  createUserAction: {
    args: { email: E2E_ADMIN.email, name: "Twin", role: "VIEWER", password: "long-enough-password" },
    refusedWith: "CONFLICT",
  },
  updateUserAction: { args: { userId: UNKNOWN_ID, role: "VIEWER" }, refusedWith: "NOT_FOUND" },
  resetPasswordAction: {
    args: { userId: UNKNOWN_ID, password: "long-enough-password" },
    refusedWith: "NOT_FOUND",
  },
  reviewProbeAction: { args: { probeId: UNKNOWN_ID, verdict: "PASS" }, refusedWith: "NOT_FOUND" },
  confirmJudgeVerdictsAction: { args: { probeIds: [UNKNOWN_ID] }, refusedWith: "NOT_FOUND" },
  runBenchAction: { args: { scenarioId: UNKNOWN_ID, stateSource: "initial" }, refusedWith: "NOT_FOUND" },
  saveValidatorVersionAction: {
    args: { validatorId: UNKNOWN_ID, baseVersionId: UNKNOWN_ID, code: check, message: "m" },
    refusedWith: "NOT_FOUND",
  },
  createDatasetVersionAction: {
    args: { name: "fuzz-unknown-environment", environments: [UNKNOWN_ID], isNew: true },
    refusedWith: "INVALID_INPUT",
  },
  launchDatasetRolloutsAction: {
    args: { dataset: UNKNOWN_ID, k: 1, models: "" },
    refusedWith: "NOT_FOUND",
  },
  previewDatasetVersionAction: {
    args: { name: "fuzz-preview", environments: [UNKNOWN_ID] },
    readsOnly: true,
  },
  startExportAction: {
    args: { datasetVersionId: UNKNOWN_ID, format: "OPENAI_JSONL" },
    refusedWith: "NOT_FOUND",
  },
  saveEnvironmentVersionAction: {
    args: {
      environmentId: UNKNOWN_ID,
      baseVersionId: UNKNOWN_ID,
      source: "class A:\n    pass\n",
      message: "m",
    },
    refusedWith: "NOT_FOUND",
  },
  analyzeSourceAction: {
    args: { environmentId: UNKNOWN_ID, source: "class A:\n    pass\n" },
    refusedWith: "NOT_FOUND",
  },
  launchGenerationAction: { args: { environmentId: UNKNOWN_ID }, refusedWith: "NOT_FOUND" },
  launchRolloutsAction: { args: { environmentId: UNKNOWN_ID, models: "m" }, refusedWith: "NOT_FOUND" },
  launchProofAction: { args: { environmentId: UNKNOWN_ID }, refusedWith: "NOT_FOUND" },
  archiveEnvironmentAction: {
    args: { environmentId: UNKNOWN_ID, archived: true, reason: "fuzz" },
    refusedWith: "NOT_FOUND",
  },
  launchRepairAction: { args: { target: { kind: "environment", id: UNKNOWN_ID } }, refusedWith: "NOT_FOUND" },
  mergeDuplicatesAction: {
    args: {
      keep: { environmentId: UNKNOWN_ID, versionId: UNKNOWN_ID },
      reject: [{ environmentId: `${UNKNOWN_ID}-2`, versionId: `${UNKNOWN_ID}-2` }],
    },
    refusedWith: "NOT_FOUND",
  },
  dismissDuplicatesAction: {
    args: { versionIds: [UNKNOWN_ID, `${UNKNOWN_ID}-2`] },
    refusedWith: "NOT_FOUND",
  },
  runToolAction: {
    args: {
      environmentId: UNKNOWN_ID,
      versionId: UNKNOWN_ID,
      initialState: {},
      history: [],
      call: { name: "t", args: {} },
    },
    refusedWith: "NOT_FOUND",
  },
  cancelRunAction: { args: { runId: UNKNOWN_ID }, refusedWith: "NOT_FOUND" },
  addScenariosToDatasetAction: {
    args: { datasetId: UNKNOWN_ID, scenarioIds: [UNKNOWN_ID] },
    refusedWith: "NOT_FOUND",
  },
  rerunStepAction: { args: { runId: UNKNOWN_ID, subjectKey: "s", stage: "judge" }, refusedWith: "NOT_FOUND" },
};
