-- What the dataset preview needs of each scenario, kept by triggers so a preview over 100,000
-- scenarios reads one narrow table instead of joining environments, scenarios, validators, proofs
-- and rollout sums on every request. One row per scenario, on its default pins: the environment
-- version a reviewer accepted and the validator versions a reviewer accepted
-- (lib/review/acceptance.ts), with the newest proof's verdict on exactly those pins
-- (lib/scenarios/proof-status.ts), whether that proof shows a weak validator
-- (lib/scenarios/near-miss-strength.ts), the pooled rollout sums on them ("RolloutTally"), the
-- plan key (environment slug / external id, compared by code point) and the verdict class on
-- those pins (what judgeScenario in lib/datasets/plan.ts decides: rejected, waiting, noenv,
-- problem or ok).
--
-- Every writer of an input keeps it exact: statement-level triggers on "Scenario", "Validator",
-- "Environment", "ValidatorProof" and "RolloutTally" call "plan_fact_refresh" with the scenarios
-- they touched. The refresh takes the fact rows' locks first and only then reads the inputs, in
-- statements of their own: under READ COMMITTED each reads a snapshot taken after the lock, so
-- two writers of one scenario's inputs (a proof and a rollout at once) cannot leave a row computed
-- from a snapshot that missed the other. Under REPEATABLE READ the lock raises a serialization
-- failure instead of reading stale inputs.
-- (Bodies are E'' strings with \073 for the semicolon: the migration engine splits scripts on
-- semicolons and does not understand $$ quoting.)
CREATE TABLE "ScenarioPlanFact" (
    "scenarioId" TEXT NOT NULL,
    "projectId" TEXT NOT NULL,
    "environmentId" TEXT NOT NULL,
    "environmentStatus" TEXT NOT NULL,
    "currentEnvironmentVersionId" TEXT,
    "externalId" TEXT NOT NULL,
    "key" TEXT COLLATE "C" NOT NULL,
    "status" TEXT NOT NULL,
    "validatorVersionIds" JSONB,
    "environmentVersionId" TEXT,
    "proofStatus" TEXT,
    "weak" BOOLEAN NOT NULL DEFAULT false,
    "n" INTEGER NOT NULL DEFAULT 0,
    "successes" INTEGER NOT NULL DEFAULT 0,
    "planClass" TEXT NOT NULL DEFAULT 'waiting',

    CONSTRAINT "ScenarioPlanFact_pkey" PRIMARY KEY ("scenarioId"),
    CONSTRAINT "ScenarioPlanFact_scenarioId_fkey" FOREIGN KEY ("scenarioId") REFERENCES "Scenario"("id") ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE INDEX "ScenarioPlanFact_environmentId_idx" ON "ScenarioPlanFact"("environmentId");
-- The preview's pages on default pins walk these in key order: a difficulty bucket's items, and
-- one verdict's left-out items.
CREATE INDEX "ScenarioPlanFact_projectId_planClass_n_successes_key_idx" ON "ScenarioPlanFact"("projectId", "planClass", "n", "successes", "key");
CREATE INDEX "ScenarioPlanFact_projectId_planClass_key_idx" ON "ScenarioPlanFact"("projectId", "planClass", "key");

-- The string elements of a JSON array, in order (what idList reads), NULL when not an array.
CREATE FUNCTION "plan_id_list"(v jsonb) RETURNS jsonb LANGUAGE sql IMMUTABLE AS
  'SELECT CASE WHEN jsonb_typeof(v) = ''array'' THEN COALESCE(
     (SELECT jsonb_agg(x ORDER BY i) FROM jsonb_array_elements(v) WITH ORDINALITY AS e(x, i) WHERE jsonb_typeof(x) = ''string''),
     ''[]''::jsonb) END';

-- The validator versions a reviewer accepted (acceptedValidatorVersionIds in acceptance.ts).
CREATE FUNCTION "plan_accepted_validators"(sid text, status text, stored jsonb) RETURNS jsonb LANGUAGE sql STABLE AS
  'SELECT CASE status
     WHEN ''ACCEPTED'' THEN COALESCE((SELECT jsonb_agg(v."currentVersionId" ORDER BY v."position") FROM "Validator" v
                                      WHERE v."scenarioId" = sid AND v."currentVersionId" IS NOT NULL), ''[]''::jsonb)
     WHEN ''REJECTED'' THEN NULL
     ELSE "plan_id_list"(stored) END';

-- The environment version a reviewer accepted (acceptedEnvironmentVersionId in acceptance.ts).
CREATE FUNCTION "plan_accepted_environment_version"(env_status text, current_version text, accepted_version text) RETURNS text LANGUAGE sql IMMUTABLE AS
  'SELECT CASE env_status WHEN ''ACCEPTED'' THEN current_version WHEN ''REJECTED'' THEN NULL ELSE accepted_version END';

-- The newest proof on exactly these pins: VERIFIED, FAILED (any other status), or NULL when none
-- (the plan says "proof missing"). Weak when its near-miss evidence was measured and a judged
-- near-miss earned full reward (isWeakValidator).
CREATE FUNCTION "plan_proof_on"(sid text, ev text, vals jsonb, OUT "status" text, OUT "weak" boolean) LANGUAGE sql STABLE AS
  'SELECT CASE WHEN p."status"::text = ''VERIFIED'' THEN ''VERIFIED'' ELSE ''FAILED'' END,
          COALESCE(p."nearMiss"->>''status'' = ''MEASURED'' AND jsonb_typeof(p."nearMiss"->''results'') = ''array'' AND EXISTS (
            SELECT 1 FROM jsonb_array_elements(p."nearMiss"->''results'') r
            WHERE r->>''outcome'' = ''JUDGED'' AND jsonb_typeof(r->''reward'') = ''number'' AND (r->>''reward'')::float8 >= 1), false)
   FROM "ValidatorProof" p
   WHERE p."scenarioId" = sid AND p."environmentVersionId" = ev AND "plan_id_list"(p."validatorVersionIds") = vals
   ORDER BY p."createdAt" DESC, p."id" DESC LIMIT 1';

-- Pooled rollout sums on exactly these pins (what lib/difficulty counts).
CREATE FUNCTION "plan_counts_on"(sid text, ev text, vals jsonb, OUT "n" integer, OUT "successes" integer) LANGUAGE sql STABLE AS
  'SELECT COALESCE(sum(t."n"), 0)::int, COALESCE(sum(t."successes"), 0)::int FROM "RolloutTally" t
   WHERE t."scenarioId" = sid AND t."environmentVersionId" = ev AND t."validatorVersionKey" = vals::text AND t."n" > 0';

CREATE FUNCTION "plan_fact_refresh"(ids text[]) RETURNS void LANGUAGE plpgsql AS
  E'
  BEGIN
    IF ids IS NULL OR cardinality(ids) = 0 THEN RETURN\073 END IF\073
    INSERT INTO "ScenarioPlanFact" ("scenarioId", "projectId", "environmentId", "environmentStatus", "externalId", "key", "status")
    SELECT s."id", e."projectId", s."environmentId", e."status"::text, s."externalId", e."slug" || ''/'' || s."externalId", s."status"::text
    FROM "Scenario" s JOIN "Environment" e ON e."id" = s."environmentId"
    WHERE s."id" = ANY(ids) ORDER BY s."id" ON CONFLICT DO NOTHING\073
    PERFORM 1 FROM "ScenarioPlanFact" f WHERE f."scenarioId" = ANY(ids) ORDER BY f."scenarioId" FOR UPDATE\073
    UPDATE "ScenarioPlanFact" f
    SET "projectId" = c."projectId", "environmentId" = c."environmentId", "environmentStatus" = c."environmentStatus",
        "currentEnvironmentVersionId" = c."currentVersionId", "externalId" = c."externalId", "key" = c."key",
        "status" = c."status", "validatorVersionIds" = c.vals, "environmentVersionId" = c.ev,
        "proofStatus" = pr."status", "weak" = COALESCE(pr."weak", false),
        "n" = COALESCE(ct."n", 0), "successes" = COALESCE(ct."successes", 0),
        "planClass" = CASE WHEN c."status" = ''REJECTED'' THEN ''rejected'' WHEN c.vals IS NULL THEN ''waiting''
                           WHEN c.ev IS NULL THEN ''noenv'' WHEN pr."status" IS DISTINCT FROM ''VERIFIED'' THEN ''problem'' ELSE ''ok'' END
    FROM (
      SELECT s."id", e."projectId", s."environmentId", e."status"::text AS "environmentStatus", e."currentVersionId",
             s."externalId", e."slug" || ''/'' || s."externalId" AS "key", s."status"::text AS "status",
             "plan_accepted_validators"(s."id", s."status"::text, s."acceptedValidatorVersionIds") AS vals,
             "plan_accepted_environment_version"(e."status"::text, e."currentVersionId", e."acceptedVersionId") AS ev
      FROM "Scenario" s JOIN "Environment" e ON e."id" = s."environmentId"
      WHERE s."id" = ANY(ids)
    ) c
    LEFT JOIN LATERAL "plan_proof_on"(c."id", c.ev, c.vals) pr ON c.ev IS NOT NULL AND c.vals IS NOT NULL
    LEFT JOIN LATERAL "plan_counts_on"(c."id", c.ev, c.vals) ct ON c.ev IS NOT NULL AND c.vals IS NOT NULL
    WHERE f."scenarioId" = c."id"\073
  END\073';

-- One trigger function per table: the scenarios a statement touched (NEW and OLD rows alike).
CREATE FUNCTION "plan_fact_from_scenario"() RETURNS trigger LANGUAGE plpgsql AS
  E'
  BEGIN
    IF TG_OP = ''INSERT'' THEN
      PERFORM "plan_fact_refresh"(ARRAY(SELECT a."id" FROM added a))\073
    ELSE
      PERFORM "plan_fact_refresh"(ARRAY(
        SELECT a."id" FROM added a JOIN removed o ON o."id" = a."id"
        WHERE a."status" IS DISTINCT FROM o."status" OR a."environmentId" IS DISTINCT FROM o."environmentId"
           OR a."externalId" IS DISTINCT FROM o."externalId"
           OR a."acceptedValidatorVersionIds" IS DISTINCT FROM o."acceptedValidatorVersionIds"))\073
    END IF\073
    RETURN NULL\073
  END\073';
CREATE TRIGGER "Scenario_plan_fact_insert" AFTER INSERT ON "Scenario"
  REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION "plan_fact_from_scenario"();
CREATE TRIGGER "Scenario_plan_fact_update" AFTER UPDATE ON "Scenario"
  REFERENCING OLD TABLE AS removed NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION "plan_fact_from_scenario"();

CREATE FUNCTION "plan_fact_from_environment"() RETURNS trigger LANGUAGE plpgsql AS
  E'
  BEGIN
    PERFORM "plan_fact_refresh"(ARRAY(
      SELECT s."id" FROM added a JOIN removed o ON o."id" = a."id" JOIN "Scenario" s ON s."environmentId" = a."id"
      WHERE a."status" IS DISTINCT FROM o."status" OR a."currentVersionId" IS DISTINCT FROM o."currentVersionId"
         OR a."acceptedVersionId" IS DISTINCT FROM o."acceptedVersionId" OR a."slug" IS DISTINCT FROM o."slug"
         OR a."projectId" IS DISTINCT FROM o."projectId"))\073
    RETURN NULL\073
  END\073';
CREATE TRIGGER "Environment_plan_fact_update" AFTER UPDATE ON "Environment"
  REFERENCING OLD TABLE AS removed NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION "plan_fact_from_environment"();

-- Validator, ValidatorProof and RolloutTally rows all name their scenario as "scenarioId".
CREATE FUNCTION "plan_fact_from_scenario_rows"() RETURNS trigger LANGUAGE plpgsql AS
  E'
  BEGIN
    IF TG_OP = ''INSERT'' THEN
      PERFORM "plan_fact_refresh"(ARRAY(SELECT DISTINCT a."scenarioId" FROM added a))\073
    ELSIF TG_OP = ''DELETE'' THEN
      PERFORM "plan_fact_refresh"(ARRAY(SELECT DISTINCT o."scenarioId" FROM removed o))\073
    ELSE
      PERFORM "plan_fact_refresh"(ARRAY(SELECT a."scenarioId" FROM added a UNION SELECT o."scenarioId" FROM removed o))\073
    END IF\073
    RETURN NULL\073
  END\073';
CREATE TRIGGER "Validator_plan_fact_insert" AFTER INSERT ON "Validator"
  REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION "plan_fact_from_scenario_rows"();
CREATE TRIGGER "Validator_plan_fact_update" AFTER UPDATE ON "Validator"
  REFERENCING OLD TABLE AS removed NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION "plan_fact_from_scenario_rows"();
CREATE TRIGGER "Validator_plan_fact_delete" AFTER DELETE ON "Validator"
  REFERENCING OLD TABLE AS removed FOR EACH STATEMENT EXECUTE FUNCTION "plan_fact_from_scenario_rows"();
CREATE TRIGGER "ValidatorProof_plan_fact_insert" AFTER INSERT ON "ValidatorProof"
  REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION "plan_fact_from_scenario_rows"();
CREATE TRIGGER "ValidatorProof_plan_fact_update" AFTER UPDATE ON "ValidatorProof"
  REFERENCING OLD TABLE AS removed NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION "plan_fact_from_scenario_rows"();
CREATE TRIGGER "ValidatorProof_plan_fact_delete" AFTER DELETE ON "ValidatorProof"
  REFERENCING OLD TABLE AS removed FOR EACH STATEMENT EXECUTE FUNCTION "plan_fact_from_scenario_rows"();
CREATE TRIGGER "RolloutTally_plan_fact_insert" AFTER INSERT ON "RolloutTally"
  REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION "plan_fact_from_scenario_rows"();
CREATE TRIGGER "RolloutTally_plan_fact_update" AFTER UPDATE ON "RolloutTally"
  REFERENCING OLD TABLE AS removed NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION "plan_fact_from_scenario_rows"();
CREATE TRIGGER "RolloutTally_plan_fact_delete" AFTER DELETE ON "RolloutTally"
  REFERENCING OLD TABLE AS removed FOR EACH STATEMENT EXECUTE FUNCTION "plan_fact_from_scenario_rows"();

-- Backfill (counted so the statement returns a type the migration driver can read).
SELECT count(*) FROM (SELECT "plan_fact_refresh"(ARRAY(SELECT "id" FROM "Scenario"))) AS backfill;
