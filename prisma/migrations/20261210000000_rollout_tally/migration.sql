-- Difficulty reads sums over rollouts, never the rollouts: one row per (scenario, environment
-- version, validator versions, model) with the count, the successes (reward exactly 1) and the sums
-- of reward and reward squared, kept by statement-level triggers on "Trajectory" so every writer
-- (rollout runs, imports, hand-written SQL) keeps it exact, and concurrent writers add through
-- row locks (INSERT ... ON CONFLICT DO UPDATE). Validator version ids are strings, so the jsonb
-- array's text form is a faithful key.
-- (The body is an E'' string with \073 for the semicolon because the migration engine splits scripts on
-- semicolons and does not understand $$ quoting.)
CREATE TABLE "RolloutTally" (
    "scenarioId" TEXT NOT NULL,
    "environmentVersionId" TEXT NOT NULL,
    "validatorVersionKey" TEXT NOT NULL,
    "model" TEXT NOT NULL,
    "n" INTEGER NOT NULL,
    "successes" INTEGER NOT NULL,
    "rewardSum" DOUBLE PRECISION NOT NULL,
    "rewardSquareSum" DOUBLE PRECISION NOT NULL,

    CONSTRAINT "RolloutTally_pkey" PRIMARY KEY ("scenarioId","environmentVersionId","validatorVersionKey","model")
);

INSERT INTO "RolloutTally" ("scenarioId", "environmentVersionId", "validatorVersionKey", "model", "n", "successes", "rewardSum", "rewardSquareSum")
SELECT "scenarioId", "environmentVersionId", "validatorVersionIds"::text, "model", count(*), count(*) FILTER (WHERE "reward" = 1), sum("reward"), sum("reward" * "reward")
FROM "Trajectory" GROUP BY 1, 2, 3, 4;

CREATE OR REPLACE FUNCTION "rollout_tally_apply"() RETURNS trigger LANGUAGE plpgsql AS
  E'
  BEGIN
    IF TG_OP <> ''DELETE'' THEN
      INSERT INTO "RolloutTally" AS r ("scenarioId", "environmentVersionId", "validatorVersionKey", "model", "n", "successes", "rewardSum", "rewardSquareSum")
      SELECT a."scenarioId", a."environmentVersionId", a."validatorVersionIds"::text, a."model", count(*), count(*) FILTER (WHERE a."reward" = 1), sum(a."reward"), sum(a."reward" * a."reward")
      FROM added a GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4
      ON CONFLICT ("scenarioId", "environmentVersionId", "validatorVersionKey", "model") DO UPDATE
      SET "n" = r."n" + EXCLUDED."n", "successes" = r."successes" + EXCLUDED."successes",
          "rewardSum" = r."rewardSum" + EXCLUDED."rewardSum", "rewardSquareSum" = r."rewardSquareSum" + EXCLUDED."rewardSquareSum"\073
    END IF\073
    IF TG_OP <> ''INSERT'' THEN
      INSERT INTO "RolloutTally" AS r ("scenarioId", "environmentVersionId", "validatorVersionKey", "model", "n", "successes", "rewardSum", "rewardSquareSum")
      SELECT o."scenarioId", o."environmentVersionId", o."validatorVersionIds"::text, o."model", -count(*), -count(*) FILTER (WHERE o."reward" = 1), -sum(o."reward"), -sum(o."reward" * o."reward")
      FROM removed o GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4
      ON CONFLICT ("scenarioId", "environmentVersionId", "validatorVersionKey", "model") DO UPDATE
      SET "n" = r."n" + EXCLUDED."n", "successes" = r."successes" + EXCLUDED."successes",
          "rewardSum" = r."rewardSum" + EXCLUDED."rewardSum", "rewardSquareSum" = r."rewardSquareSum" + EXCLUDED."rewardSquareSum"\073
      DELETE FROM "RolloutTally" r USING removed o
      WHERE r."n" <= 0 AND r."scenarioId" = o."scenarioId" AND r."environmentVersionId" = o."environmentVersionId"
        AND r."validatorVersionKey" = o."validatorVersionIds"::text AND r."model" = o."model"\073
    END IF\073
    RETURN NULL\073
  END\073';

CREATE TRIGGER "Trajectory_tally_insert" AFTER INSERT ON "Trajectory"
  REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION "rollout_tally_apply"();
CREATE TRIGGER "Trajectory_tally_update" AFTER UPDATE ON "Trajectory"
  REFERENCING OLD TABLE AS removed NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION "rollout_tally_apply"();
CREATE TRIGGER "Trajectory_tally_delete" AFTER DELETE ON "Trajectory"
  REFERENCING OLD TABLE AS removed FOR EACH STATEMENT EXECUTE FUNCTION "rollout_tally_apply"();
