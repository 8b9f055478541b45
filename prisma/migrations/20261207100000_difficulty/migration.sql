-- AlterTable
ALTER TABLE "DatasetItem" ADD COLUMN     "difficulty" JSONB;

-- CreateIndex
CREATE INDEX "Trajectory_scenarioId_environmentVersionId_idx" ON "Trajectory"("scenarioId", "environmentVersionId");
