-- AlterTable
ALTER TABLE "ValidatorProof" ADD COLUMN     "nearMiss" JSONB;

-- AlterTable
ALTER TABLE "DatasetItem" ADD COLUMN     "nearMissStrength" JSONB;
