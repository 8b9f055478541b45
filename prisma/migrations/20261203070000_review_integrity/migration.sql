-- AlterEnum
ALTER TYPE "Decision" ADD VALUE 'UNDO';

-- AlterEnum
ALTER TYPE "ReviewTarget" ADD VALUE 'DATASET_VERSION';

-- AlterTable
ALTER TABLE "DatasetItem" ADD COLUMN     "overridden" BOOLEAN NOT NULL DEFAULT false;

-- AlterTable
ALTER TABLE "DatasetVersion" ADD COLUMN     "overrideReason" TEXT;

-- AlterTable
ALTER TABLE "Environment" ADD COLUMN     "acceptedVersionId" TEXT;

-- AlterTable
ALTER TABLE "EnvironmentVersion" ADD COLUMN     "mergedParentVersionId" TEXT;

-- AlterTable
ALTER TABLE "Scenario" ADD COLUMN     "acceptedValidatorVersionIds" JSONB;

-- AlterTable
ALTER TABLE "ValidatorVersion" ADD COLUMN     "mergedParentVersionId" TEXT,
ADD COLUMN     "parentVersionId" TEXT;

-- Backfill: what is ACCEPTED today was accepted on its current version and validators.
UPDATE "Environment" SET "acceptedVersionId" = "currentVersionId" WHERE "status" = 'ACCEPTED';
UPDATE "Scenario" s SET "acceptedValidatorVersionIds" = COALESCE((
  SELECT jsonb_agg(v."currentVersionId" ORDER BY v."position") FROM "Validator" v WHERE v."scenarioId" = s."id" AND v."currentVersionId" IS NOT NULL
), '[]'::jsonb) WHERE s."status" = 'ACCEPTED';
