-- The review log is an audit trail: rows are only ever inserted. Refuse UPDATE and DELETE at the
-- database level so no code path (or hand-written SQL) can rewrite history.
-- (The body is an E'' string with \073 for the semicolon because the migration engine splits scripts on
-- semicolons and does not understand $$ quoting.)
CREATE OR REPLACE FUNCTION "review_decision_append_only"() RETURNS trigger LANGUAGE plpgsql AS
  E'BEGIN RAISE EXCEPTION ''ReviewDecision is append-only (% refused)'', TG_OP USING ERRCODE = ''raise_exception''\073 END\073';

CREATE TRIGGER "ReviewDecision_append_only"
  BEFORE UPDATE OR DELETE ON "ReviewDecision"
  FOR EACH ROW EXECUTE FUNCTION "review_decision_append_only"();
