-- CreateEnum
CREATE TYPE "RepairKind" AS ENUM ('VALIDATOR', 'ENVIRONMENT');

-- CreateEnum
CREATE TYPE "RepairStatus" AS ENUM ('PROVEN', 'FAILED', 'ACCEPTED', 'REJECTED');

-- AlterEnum
ALTER TYPE "ReviewTarget" ADD VALUE 'REPAIR_PROPOSAL';

-- AlterEnum
ALTER TYPE "RunKind" ADD VALUE 'REPAIR';

-- CreateTable
CREATE TABLE "RepairProposal" (
    "id" TEXT NOT NULL,
    "projectId" TEXT NOT NULL,
    "kind" "RepairKind" NOT NULL,
    "status" "RepairStatus" NOT NULL,
    "environmentId" TEXT NOT NULL,
    "scenarioId" TEXT,
    "runId" TEXT,
    "environmentVersionId" TEXT NOT NULL,
    "validatorVersionIds" JSONB NOT NULL DEFAULT '[]',
    "changes" JSONB NOT NULL,
    "evidence" JSONB NOT NULL,
    "proofBefore" JSONB NOT NULL,
    "proofAfter" JSONB NOT NULL,
    "reasons" JSONB NOT NULL DEFAULT '[]',
    "summary" TEXT NOT NULL,
    "model" TEXT NOT NULL,
    "decisionReason" TEXT NOT NULL DEFAULT '',
    "decidedById" TEXT,
    "decidedAt" TIMESTAMP(3),
    "appliedVersionIds" JSONB,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "RepairProposal_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "RepairProposal_projectId_status_createdAt_idx" ON "RepairProposal"("projectId", "status", "createdAt" DESC);

-- CreateIndex
CREATE INDEX "RepairProposal_scenarioId_createdAt_idx" ON "RepairProposal"("scenarioId", "createdAt" DESC);

-- AddForeignKey
ALTER TABLE "RepairProposal" ADD CONSTRAINT "RepairProposal_environmentId_fkey" FOREIGN KEY ("environmentId") REFERENCES "Environment"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "RepairProposal" ADD CONSTRAINT "RepairProposal_scenarioId_fkey" FOREIGN KEY ("scenarioId") REFERENCES "Scenario"("id") ON DELETE CASCADE ON UPDATE CASCADE;
