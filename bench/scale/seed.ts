/**
 * The scale bench's corpus, in bulk SQL (INSERT … SELECT over generate_series): environments of
 * every status, ten scenarios each with checks, proofs and realistic short tasks, quality checks,
 * flagged rollouts, decisions, runs and LLM spend, and one dataset version for the export.
 * Ids are derived from the row number (env j is `e<j>`, its version `ev<j>`, scenario i `s<i>`), so
 * every reference is known without a lookup.
 */
import pg from "pg";

export type ScaleSizes = {
  envs: number;
  perEnv: number;
  checks: number;
  datasetItems: number;
  rollouts: number;
};

const DOMAINS = [
  "airline",
  "retail",
  "library",
  "banking",
  "telecom",
  "insurance",
  "hotel",
  "clinic",
  "pharmacy",
  "logistics",
  "restaurant",
  "car-rental",
  "utilities",
  "school",
  "gym",
  "ticketing",
  "real-estate",
  "payroll",
  "helpdesk",
  "grocery",
  "cinema",
  "courier",
  "museum",
  "parking",
  "veterinary",
  "travel",
  "marketplace",
  "warehouse",
  "dental",
  "bike-share",
];
const NOUNS = [
  "booking",
  "order",
  "loan",
  "ticket",
  "account",
  "subscription",
  "claim",
  "shipment",
  "appointment",
  "reservation",
  "invoice",
  "membership",
];
const VERBS = [
  "Cancel",
  "Refund",
  "Rebook",
  "Renew",
  "Upgrade",
  "Transfer",
  "Update",
  "Close",
  "Reopen",
  "Reschedule",
  "Return",
  "Reserve",
];
const FIRST = [
  "Ana",
  "Ben",
  "Chloe",
  "Dmitri",
  "Elif",
  "Farah",
  "Gabriel",
  "Hana",
  "Ivan",
  "Jade",
  "Kofi",
  "Lena",
  "Mateo",
  "Nadia",
  "Omar",
  "Priya",
  "Quinn",
  "Rosa",
  "Sven",
  "Tariq",
];
const LAST = [
  "Okafor",
  "Lindqvist",
  "Moreau",
  "Tanaka",
  "Rossi",
  "Novak",
  "Haddad",
  "Kowalski",
  "Silva",
  "Nguyen",
  "Schmidt",
  "Ortega",
  "Byrne",
  "Sato",
  "Petrov",
  "Mensah",
  "Dubois",
  "Khan",
  "Costa",
  "Walsh",
];
const THEN = [
  "check the balance",
  "confirm by email",
  "add a note to the file",
  "apply the loyalty discount",
  "notify the branch",
  "log the reason the customer gave",
];
const FLAGS = [
  "reward 1 but the final answer contradicts the state",
  "called a tool that does not exist",
  "truncated at the step limit",
  "the user simulator left the script",
];

const arr = (xs: string[]) => `ARRAY[${xs.map((x) => `'${x}'`).join(",")}]`;
/** The n-th element of a literal array, 0-based and wrapping. */
const pick = (xs: string[], n: string) => `(${arr(xs)})[1 + ((${n}) % ${xs.length})]`;

/** Status mix by env number: 40 % accepted, 20 % in review, the rest drafts, checks, rejects, failures. */
export const envStatus = (
  j: string,
) => `(CASE WHEN ${j} % 20 < 8 THEN 'ACCEPTED' WHEN ${j} % 20 < 12 THEN 'IN_REVIEW'
  WHEN ${j} % 20 < 14 THEN 'DRAFT' WHEN ${j} % 20 = 14 THEN 'CHECKING' WHEN ${j} % 20 = 15 THEN 'GENERATING'
  WHEN ${j} % 20 < 18 THEN 'REJECTED' ELSE 'FAILED' END)`;
const scenarioStatus = (j: string, k: string) => `(CASE
  WHEN ${j} % 20 < 8 THEN CASE WHEN ${k} <= 8 THEN 'ACCEPTED' WHEN ${k} = 9 THEN 'IN_REVIEW' ELSE 'DRAFT' END
  WHEN ${j} % 20 < 12 THEN CASE WHEN ${k} <= 7 THEN 'IN_REVIEW' ELSE 'DRAFT' END
  WHEN ${j} % 20 < 16 THEN 'DRAFT' ELSE 'REJECTED' END)`;
const proofStatus = (j: string, k: string) => `(CASE
  WHEN ${j} % 20 < 8 THEN CASE WHEN ${k} <= 8 THEN 'VERIFIED' WHEN ${k} = 9 THEN 'FAILED' ELSE 'PENDING' END
  WHEN ${j} % 20 < 12 THEN CASE WHEN ${k} <= 5 THEN 'VERIFIED' WHEN ${k} <= 7 THEN 'FAILED' ELSE 'PENDING' END
  WHEN ${j} % 20 < 16 THEN 'PENDING' ELSE CASE WHEN ${k} % 2 = 0 THEN 'FAILED' ELSE 'STALE' END END)`;
const ts = (offsetSeconds: string) => `(timestamp '2026-06-01' + (${offsetSeconds}) * interval '1 second')`;

function statements(n: ScaleSizes): [string, string][] {
  const scenarios = n.envs * n.perEnv;
  const j = `((i - 1) / ${n.perEnv} + 1)`;
  const k = `((i - 1) % ${n.perEnv} + 1)`;
  const pins = (i: string) =>
    `(SELECT jsonb_agg('vv' || ${i} || '-' || c ORDER BY c) FROM generate_series(0, ${n.checks - 1}) c)`;
  return [
    [
      "project and runs",
      `
      INSERT INTO "Project" (id, slug, name) VALUES ('p', 'default', 'Default project');
      INSERT INTO "PipelineRun" (id, "projectId", kind, status, name, "createdAt", "startedAt", "finishedAt")
      SELECT 'run' || r, 'p', 'SKEL_BUILDER', 'SUCCEEDED', 'mining run ' || r, ${ts("r * 86400")}, ${ts("r * 86400")}, ${ts("r * 86400 + 3600")}
      FROM generate_series(1, 60) r;
      INSERT INTO "LlmCall" (id, "cacheKey", model, request, "costUsd", "runId", "createdAt")
      SELECT 'llm' || c, 'k' || c, 'gpt-bench', '{}', 0.0004 * (c % 7), 'run' || (1 + c % 60), now() - (c % 40) * interval '1 day'
      FROM generate_series(1, 20000) c`,
    ],
    [
      "environments",
      `
      INSERT INTO "Environment" (id, "projectId", slug, name, description, domain, status, origin, "toolCount", "runId",
                                 "archivedAt", "createdAt", "updatedAt")
      SELECT 'e' || j, 'p', ${pick(DOMAINS, "j")} || '-' || ${pick(NOUNS, "j / 30")} || '-' || lpad(j::text, 6, '0'),
             initcap(${pick(DOMAINS, "j")}) || ' ' || ${pick(NOUNS, "j / 30")} || ' desk ' || j,
             'Manages ' || ${pick(NOUNS, "j / 30")} || ' records for a ' || ${pick(DOMAINS, "j")} || ' business.',
             ${pick(DOMAINS, "j")}, ${envStatus("j")}::"EnvironmentStatus",
             (CASE WHEN j % 3 = 0 THEN 'IMPORT' ELSE 'PIPELINE' END)::"Origin", 5 + j % 6,
             CASE WHEN j % 3 = 0 THEN NULL ELSE 'run' || (1 + j % 60) END,
             CASE WHEN j % 20 >= 16 AND j % 3 = 0 THEN ${ts("j * 60 + 7200")} END,
             ${ts("j * 60")}, ${ts("j * 60 + (j::bigint * 7919) % 500000")}
      FROM generate_series(1, ${n.envs}) j`,
    ],
    [
      "environment versions",
      `
      INSERT INTO "EnvironmentVersion" (id, "environmentId", version, "className", source, "sourceHash", tools, "producedBy", "createdAt")
      SELECT 'ev' || j, 'e' || j, 1, 'Desk', src, md5(src), jsonb_build_array(
               jsonb_build_object('type', 'function', 'function', jsonb_build_object('name', 'get_' || noun, 'description', 'Read one ' || noun,
                 'parameters', jsonb_build_object('type', 'object', 'properties', jsonb_build_object(noun || '_id', jsonb_build_object('type', 'string')), 'required', jsonb_build_array(noun || '_id')))),
               jsonb_build_object('type', 'function', 'function', jsonb_build_object('name', 'update_' || noun, 'description', 'Change a ' || noun || ' status',
                 'parameters', jsonb_build_object('type', 'object', 'properties', jsonb_build_object(noun || '_id', jsonb_build_object('type', 'string'), 'status', jsonb_build_object('type', 'string')), 'required', jsonb_build_array(noun || '_id', 'status'))))),
             'pipeline', ${ts("j * 60")}
      FROM (SELECT j, ${pick(NOUNS, "j / 30")} AS noun,
              'class Desk:' || chr(10) || '    """Manages ' || ${pick(NOUNS, "j / 30")} || ' records."""' || chr(10) ||
              '    def __init__(self, init_config=None):' || chr(10) || '        self.records = dict((init_config or {}).get("records", {}))' || chr(10) ||
              '    def get_' || ${pick(NOUNS, "j / 30")} || '(self, ' || ${pick(NOUNS, "j / 30")} || '_id: str) -> dict:' || chr(10) ||
              '        r = self.records.get(' || ${pick(NOUNS, "j / 30")} || '_id)' || chr(10) ||
              '        return {"success": r is not None, "data": r}' || chr(10) ||
              '    def update_' || ${pick(NOUNS, "j / 30")} || '(self, ' || ${pick(NOUNS, "j / 30")} || '_id: str, status: str) -> dict:' || chr(10) ||
              '        if status not in ("active", "cancelled", "refunded", "closed"):' || chr(10) ||
              '            return {"success": False, "error": "unknown status"}' || chr(10) ||
              '        self.records.setdefault(' || ${pick(NOUNS, "j / 30")} || '_id, {})["status"] = status' || chr(10) ||
              '        return {"success": True}  # env ' || j AS src
            FROM generate_series(1, ${n.envs}) j) v;
      UPDATE "Environment" SET "currentVersionId" = 'ev' || substr(id, 2),
        "acceptedVersionId" = CASE WHEN status = 'ACCEPTED' THEN 'ev' || substr(id, 2) END`,
    ],
    [
      "scenarios",
      `
      INSERT INTO "Scenario" (id, "environmentId", "environmentVersionId", "externalId", "initialState", task, "taskHash", checklist,
                              "goldCalls", status, "proofStatus", "proofReasons", "acceptedValidatorVersionIds", origin, "createdAt", "updatedAt")
      SELECT 's' || i, 'e' || ${j}, 'ev' || ${j}, 'task-' || lpad(i::text, 7, '0'),
             jsonb_build_object('records', jsonb_build_object(ref, jsonb_build_object('status', 'active', 'amount', i % 300, 'owner', who)),
               'customers', jsonb_build_object('C' || i, jsonb_build_object('name', who, 'tier', CASE WHEN i % 4 = 0 THEN 'gold' ELSE 'standard' END)),
               'clock', jsonb_build_object('current_date', '2026-03-01')),
             task, md5(task),
             jsonb_build_array('The ' || ${pick(NOUNS, `${j} / 30`)} || ' ' || ref || ' has the new status', 'Nothing else changed'),
             jsonb_build_array(jsonb_build_object('name', 'update_' || ${pick(NOUNS, `${j} / 30`)}, 'arguments',
               jsonb_build_object(${pick(NOUNS, `${j} / 30`)} || '_id', ref, 'status', 'cancelled'))),
             ${scenarioStatus(j, k)}::"ScenarioStatus", ${proofStatus(j, k)}::"ProofStatus",
             CASE WHEN ${proofStatus(j, k)} = 'FAILED' THEN '[{"code": "FAILS_ON_GOLD", "position": 1, "message": "check 2 fails after the gold calls"}]'::jsonb ELSE '[]'::jsonb END,
             CASE WHEN ${scenarioStatus(j, k)} = 'ACCEPTED' THEN ${pins("i")} END,
             'PIPELINE', ${ts("i * 6")}, ${ts("i * 6 + (i::bigint * 7919) % 3000000")}
      FROM (SELECT i, '#' || lpad(((i::bigint * 7919) % 10000000)::text, 7, '0') AS ref,
                   ${pick(FIRST, "i / 7")} || ' ' || ${pick(LAST, "i / 11")} AS who,
                   ${pick(VERBS, "i")} || ' the ' || ${pick(NOUNS, "i / 12")} || ' #' || lpad(((i::bigint * 7919) % 10000000)::text, 7, '0') ||
                   ' for ' || ${pick(FIRST, "i / 7")} || ' ' || ${pick(LAST, "i / 11")} || ', then ' || ${pick(THEN, "i / 144")} || '.' AS task
            FROM generate_series(1, ${scenarios}) i) s`,
    ],
    [
      "validators",
      `
      INSERT INTO "Validator" (id, "scenarioId", position, "checkItem", "currentVersionId", "createdAt")
      SELECT 'v' || i || '-' || c, 's' || i, c, CASE WHEN c = 0 THEN 'The record has the new status' ELSE 'Nothing else changed' END,
             'vv' || i || '-' || c, ${ts("i * 6")}
      FROM generate_series(1, ${scenarios}) i, generate_series(0, ${n.checks - 1}) c`,
    ],
    [
      "validator versions",
      `
      INSERT INTO "ValidatorVersion" (id, "validatorId", version, code, "checkItem", "producedBy", "createdAt")
      SELECT 'vv' || i || '-' || c, 'v' || i || '-' || c, 1,
             'def check_func(initial_state, final_state):' || chr(10) || '    rec = final_state["records"].get("#' || i || '", {})' || chr(10) ||
             '    return rec.get("status") == "cancelled"  # check ' || c,
             CASE WHEN c = 0 THEN 'The record has the new status' ELSE 'Nothing else changed' END, 'pipeline', ${ts("i * 6")}
      FROM generate_series(1, ${scenarios}) i, generate_series(0, ${n.checks - 1}) c`,
    ],
    [
      "proofs",
      `
      INSERT INTO "ValidatorProof" (id, "scenarioId", "environmentVersionId", "validatorVersionIds", status, noop, gold, sensitivity, reasons, "createdAt")
      SELECT 'pf' || s.id, s.id, s."environmentVersionId",
             ${pins("substr(s.id, 2)")}, s."proofStatus", '{"ran": true, "results": []}', '{"source": null, "calls": []}', '{}', s."proofReasons", s."updatedAt"
      FROM "Scenario" s WHERE s."proofStatus" <> 'PENDING'`,
    ],
    [
      "quality checks",
      `
      INSERT INTO "QualityCheck" (id, "environmentVersionId", "testState", rounds, "passCount", "warningCount", "failCount", "passRate", "notFailRate", passed, "createdAt")
      SELECT 'qc' || j, 'ev' || j, '{}', 20, 20 - j % 7, j % 3, j % 7 - j % 3, (20 - j % 7) / 20.0, (20 - j % 7 + j % 3) / 20.0, j % 7 < 3, ${ts("j * 60 + 600")}
      FROM generate_series(1, ${n.envs}) j WHERE j % 20 < 12;
      INSERT INTO "QualityProbe" (id, "qualityCheckId", index, kind, "toolName", arguments, verdict, rationale)
      SELECT 'qp' || j || '-' || x, 'qc' || j, x, CASE WHEN x % 2 = 0 THEN 'positive' ELSE 'negative' END, 'update_record', '{}',
             (CASE WHEN x < j % 7 THEN 'FAIL' ELSE 'PASS' END)::"Verdict", 'the tool did what the docstring says'
      FROM generate_series(1, ${n.envs}) j, generate_series(0, 3) x WHERE j % 20 BETWEEN 8 AND 11`,
    ],
    [
      "dataset version",
      `
      INSERT INTO "Dataset" (id, "projectId", name, description, "createdAt")
      SELECT 'ds' || d, 'p', CASE WHEN d = 0 THEN 'scale' ELSE 'dataset-' || d END, 'bench', ${ts("d * 3600")} FROM generate_series(0, 11) d;
      INSERT INTO "DatasetVersion" (id, "datasetId", version, seed, "createdAt") VALUES ('dv0', 'ds0', 1, 42, ${ts("0")});
      INSERT INTO "DatasetItem" (id, "datasetVersionId", "scenarioId", "environmentVersionId", "validatorVersionIds", split, "nearMissStrength")
      SELECT 'di' || s.id, 'dv0', s.id, s."environmentVersionId", s."acceptedValidatorVersionIds",
             (CASE WHEN hashtext(s."environmentId") % 5 = 0 THEN 'TEST' ELSE 'TRAIN' END)::"Split",
             jsonb_build_object('strength', jsonb_build_object('rejected', 3, 'total', 4, 'passed', jsonb_build_array()))
      FROM "Scenario" s WHERE s.status = 'ACCEPTED' AND s.id IN (
        SELECT 's' || i FROM generate_series(1, ${scenarios}) i WHERE ${j} % 20 < 8 AND ${k} <= 8 ORDER BY i LIMIT ${n.datasetItems})`,
    ],
    [
      "dataset stats and the small datasets",
      `
      UPDATE "DatasetVersion" v SET stats = st.stats, changelog = st.changelog FROM (
        SELECT jsonb_build_object('scenarios', count(*), 'environments', count(DISTINCT e.id),
                 'train', jsonb_build_object('scenarios', count(*) FILTER (WHERE di.split = 'TRAIN'), 'environments', count(DISTINCT e.id) FILTER (WHERE di.split = 'TRAIN')),
                 'test', jsonb_build_object('scenarios', count(*) FILTER (WHERE di.split = 'TEST'), 'environments', count(DISTINCT e.id) FILTER (WHERE di.split = 'TEST')),
                 'checks', jsonb_build_object('total', count(*) * ${n.checks}, 'meanPerScenario', ${n.checks}),
                 'taskWords', jsonb_build_object('mean', 12, 'min', 11, 'max', 15),
                 'tools', jsonb_build_object('total', count(DISTINCT e.id) * 2, 'meanPerEnvironment', 2),
                 'byEnvironment', (SELECT jsonb_agg(jsonb_build_object('environment', slug, 'split', split, 'scenarios', n) ORDER BY slug)
                                   FROM (SELECT e2.slug, min(d2.split::text) AS split, count(*) AS n FROM "DatasetItem" d2
                                         JOIN "Scenario" s2 ON s2.id = d2."scenarioId" JOIN "Environment" e2 ON e2.id = s2."environmentId"
                                         WHERE d2."datasetVersionId" = 'dv0' GROUP BY e2.slug) b),
                 'byDomain', '{}'::jsonb) AS stats,
               jsonb_build_object('previousVersion', null, 'added', jsonb_agg(e.slug || '/' || s."externalId" ORDER BY e.slug, s."externalId"),
                 'removed', '[]'::jsonb, 'repinned', '[]'::jsonb, 'movedEnvironments', '[]'::jsonb, 'seedChanged', false) AS changelog
        FROM "DatasetItem" di JOIN "Scenario" s ON s.id = di."scenarioId" JOIN "Environment" e ON e.id = s."environmentId"
        WHERE di."datasetVersionId" = 'dv0') st WHERE v.id = 'dv0';
      INSERT INTO "DatasetVersion" (id, "datasetId", version, seed, stats, "createdAt")
      SELECT 'dv' || d || '-' || ver, 'ds' || d, ver, 42,
             jsonb_build_object('scenarios', 40, 'environments', 5, 'train', jsonb_build_object('scenarios', 32, 'environments', 4),
               'test', jsonb_build_object('scenarios', 8, 'environments', 1)), ${ts("d * 3600 + ver * 60")}
      FROM generate_series(1, 11) d, generate_series(1, 3) ver`,
    ],
    [
      "rollouts",
      `
      INSERT INTO "Trajectory" (id, "scenarioId", "environmentVersionId", "validatorVersionIds", "runId", "rolloutIndex", model, mode, messages,
                                steps, "finalState", "checkResults", reward, status, "stepCount", "sftPass", "flagReason", "createdAt")
      SELECT 't' || substr(di."scenarioId", 2) || '-' || r, di."scenarioId", di."environmentVersionId", di."validatorVersionIds",
             'run' || (1 + r % 60), r, CASE WHEN r % 2 = 0 THEN 'model-a' ELSE 'model-b' END, 'non_conversational',
             jsonb_build_object('agent', jsonb_build_array(jsonb_build_object('role', 'user', 'content', s.task),
               jsonb_build_object('role', 'assistant', 'content', 'Done: the record is cancelled.')),
               'user', '[]'::jsonb, 'endReason', 'agent_replied', 'finalText', 'Done: the record is cancelled.', 'score', 1),
             '[]', '{}', '[]', CASE WHEN (hashtext(di.id) + r) % 3 = 0 THEN 0 ELSE 1 END, 'COMPLETED', 2,
             (hashtext(di.id) + r) % 3 <> 0,
             CASE WHEN abs(hashtext(di.id || r)) % 25 = 0 THEN ${pick(FLAGS, "abs(hashtext(di.id))")} END,
             ${ts('substr(di."scenarioId", 2)::bigint * 6 + 86400 + r')}
      FROM "DatasetItem" di JOIN "Scenario" s ON s.id = di."scenarioId", generate_series(0, ${n.rollouts - 1}) r;
      INSERT INTO "ReviewDecision" (id, "projectId", "targetType", "targetId", decision, reason, "createdAt")
      SELECT 'rd' || t.id, 'p', 'TRAJECTORY', t.id, (CASE WHEN hashtext(t.id) % 2 = 0 THEN 'ACCEPT' ELSE 'REJECT' END)::"Decision", '', t."createdAt" + interval '1 hour'
      FROM "Trajectory" t WHERE t."flagReason" IS NOT NULL AND abs(hashtext(t.id)) % 3 = 0;
      INSERT INTO "ReviewDecision" (id, "projectId", "targetType", "targetId", decision, reason, "createdAt")
      SELECT 'rde' || e.id, 'p', 'ENVIRONMENT_VERSION', e."currentVersionId", 'ACCEPT', '', e."updatedAt"
      FROM "Environment" e WHERE e.status = 'ACCEPTED'`,
    ],
  ];
}

/** Seeds through one connection. FK triggers are skipped while loading (as pg_dump's
 * --disable-triggers does) when the role may: ids are consistent by construction. Rollouts are
 * the last statement, so their tallies are kept by the triggers as in production. */
export async function seedScale(url: string, sizes: ScaleSizes, log: (line: string) => void) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(`SET session_replication_role = replica`).catch(() => log("(FK checks stay on)"));
    await client.query(`SET maintenance_work_mem = '256MB'`);
    for (const [name, sql] of statements(sizes)) {
      // Rollouts go in with triggers on: statement triggers keep the per-pins tallies (RolloutTally).
      if (name === "rollouts")
        await client.query(`SET session_replication_role = DEFAULT`).catch(() => undefined);
      const t0 = performance.now();
      await client.query(sql);
      log(`  ${name}: ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    }
    const t0 = performance.now();
    await client.query(`VACUUM ANALYZE`);
    log(`  vacuum analyze: ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  } finally {
    await client.end();
  }
}
