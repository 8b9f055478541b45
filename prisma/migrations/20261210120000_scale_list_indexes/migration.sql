-- The Scenarios page lists the most recently updated first, and the review queue the oldest waiting
-- first: without these, every view sorted all scenarios (a million rows: seconds) to show 200.
CREATE INDEX "Scenario_updatedAt_idx" ON "Scenario"("updatedAt" DESC);
CREATE INDEX "Scenario_createdAt_idx" ON "Scenario"("createdAt");
-- A dataset version's items of one environment version: the export reads them in batches of
-- environments, and the row browser looks up the pinned versions of the environments it shows.
CREATE INDEX "DatasetItem_datasetVersionId_environmentVersionId_idx" ON "DatasetItem"("datasetVersionId", "environmentVersionId");
