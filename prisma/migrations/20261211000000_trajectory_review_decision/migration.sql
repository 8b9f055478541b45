-- A flagged rollout's review state on the rollout itself: the latest ACCEPT or REJECT recorded for
-- it in the audit log, or NULL while undecided (never decided, or its last decision undone). The
-- review queue and its bulk decisions filter on this column instead of sending every decided id as
-- a bind parameter, which grew with the log and failed past PostgreSQL's 32,767 parameters.
-- A row trigger on "ReviewDecision" keeps it, so every writer (single and bulk decisions, undo,
-- hand-written SQL) keeps it exact, in the order decisions are written.
-- (The body is an E'' string with \073 for the semicolon because the migration engine splits scripts on
-- semicolons and does not understand $$ quoting.)
ALTER TABLE "Trajectory" ADD COLUMN "reviewDecision" "Decision";

UPDATE "Trajectory" t SET "reviewDecision" = d."decision"
FROM (
  SELECT DISTINCT ON ("targetId") "targetId", "decision"
  FROM "ReviewDecision"
  WHERE "targetType" = 'TRAJECTORY' AND "decision" IN ('ACCEPT', 'REJECT', 'UNDO')
  ORDER BY "targetId", "createdAt" DESC, "id" DESC
) d
WHERE d."targetId" = t."id" AND d."decision" <> 'UNDO';

CREATE OR REPLACE FUNCTION "trajectory_review_decision_apply"() RETURNS trigger LANGUAGE plpgsql AS
  E'
  BEGIN
    IF NEW."targetType" = ''TRAJECTORY'' AND NEW."decision" IN (''ACCEPT'', ''REJECT'', ''UNDO'') THEN
      UPDATE "Trajectory"
      SET "reviewDecision" = CASE WHEN NEW."decision" = ''UNDO'' THEN NULL ELSE NEW."decision" END
      WHERE "id" = NEW."targetId"\073
    END IF\073
    RETURN NULL\073
  END\073';

CREATE TRIGGER "ReviewDecision_trajectory_state" AFTER INSERT ON "ReviewDecision"
  FOR EACH ROW EXECUTE FUNCTION "trajectory_review_decision_apply"();
