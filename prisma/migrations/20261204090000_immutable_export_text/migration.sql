-- AlterTable
ALTER TABLE "ValidatorVersion" ADD COLUMN     "checkItem" TEXT;

-- Backfill, most exact first: the text an EDIT decision recorded for the version it created, then
-- the text it recorded for the version it replaced, then (versions never edited here: generated,
-- imported, seeded, or the current one) the validator's current text.
UPDATE "ValidatorVersion" vv SET "checkItem" = d."after"->>'checkItem'
FROM "ReviewDecision" d
WHERE d."targetType" = 'VALIDATOR' AND d."decision" = 'EDIT'
  AND d."after"->>'versionId' = vv."id" AND d."after"->>'checkItem' IS NOT NULL;
UPDATE "ValidatorVersion" vv SET "checkItem" = d."before"->>'checkItem'
FROM "ReviewDecision" d
WHERE vv."checkItem" IS NULL AND d."targetType" = 'VALIDATOR' AND d."decision" = 'EDIT'
  AND d."before"->>'versionId' = vv."id" AND d."before"->>'checkItem' IS NOT NULL;
UPDATE "ValidatorVersion" vv SET "checkItem" = v."checkItem"
FROM "Validator" v
WHERE vv."validatorId" = v."id" AND vv."checkItem" IS NULL;

ALTER TABLE "ValidatorVersion" ALTER COLUMN "checkItem" SET NOT NULL;

-- AlterTable
ALTER TABLE "DatasetVersion" ADD COLUMN     "description" TEXT NOT NULL DEFAULT '';

-- Backfill: the dataset's description now is the best record of what each version was made with.
UPDATE "DatasetVersion" dv SET "description" = d."description" FROM "Dataset" d WHERE dv."datasetId" = d."id";
