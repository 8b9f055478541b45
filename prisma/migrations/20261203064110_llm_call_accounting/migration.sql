-- CreateEnum
CREATE TYPE "LlmCallStatus" AS ENUM ('PENDING', 'ACCEPTED', 'REJECTED', 'FAILED', 'LOST');

-- DropIndex
DROP INDEX "LlmCall_stepId_idx";

-- AlterTable
ALTER TABLE "LlmCall" ADD COLUMN     "attemptLog" JSONB NOT NULL DEFAULT '[]',
ADD COLUMN     "rejection" TEXT,
ADD COLUMN     "status" "LlmCallStatus" NOT NULL DEFAULT 'ACCEPTED';

-- CreateIndex
CREATE INDEX "LlmCall_stepId_status_idx" ON "LlmCall"("stepId", "status");

-- Calls recorded before this migration: a stored error means the endpoint never answered.
UPDATE "LlmCall" SET "status" = 'FAILED' WHERE "errorMessage" IS NOT NULL;
