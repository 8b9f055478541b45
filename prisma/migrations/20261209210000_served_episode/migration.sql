-- The environment server's episode journal: any replica can take an episode over by replaying it.
CREATE TABLE "ServedEpisode" (
    "id" TEXT NOT NULL,
    "keyHash" TEXT NOT NULL,
    "catalog" TEXT NOT NULL,
    "scenarioId" TEXT NOT NULL,
    "seed" INTEGER NOT NULL,
    "diffs" BOOLEAN NOT NULL,
    "calls" JSONB NOT NULL DEFAULT '[]',
    "holder" TEXT NOT NULL,
    "endedAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ServedEpisode_pkey" PRIMARY KEY ("id")
);

CREATE INDEX "ServedEpisode_updatedAt_idx" ON "ServedEpisode"("updatedAt");
