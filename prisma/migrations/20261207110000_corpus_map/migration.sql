-- CreateTable
CREATE TABLE "EnvironmentSignature" (
    "environmentVersionId" TEXT NOT NULL,
    "algorithm" INTEGER NOT NULL,
    "codeMinhash" INTEGER[],
    "toolMinhash" INTEGER[],
    "toolSignatures" TEXT[],
    "bands" BIGINT[],
    "tokenCount" INTEGER NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "EnvironmentSignature_pkey" PRIMARY KEY ("environmentVersionId")
);

-- CreateTable
CREATE TABLE "DuplicateDismissal" (
    "projectId" TEXT NOT NULL,
    "versionIdA" TEXT NOT NULL,
    "versionIdB" TEXT NOT NULL,
    "actorId" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "DuplicateDismissal_pkey" PRIMARY KEY ("versionIdA","versionIdB")
);

-- CreateIndex
CREATE INDEX "DuplicateDismissal_projectId_idx" ON "DuplicateDismissal"("projectId");

-- CreateIndex
CREATE INDEX "DuplicateDismissal_versionIdB_idx" ON "DuplicateDismissal"("versionIdB");

-- AddForeignKey
ALTER TABLE "EnvironmentSignature" ADD CONSTRAINT "EnvironmentSignature_environmentVersionId_fkey" FOREIGN KEY ("environmentVersionId") REFERENCES "EnvironmentVersion"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "DuplicateDismissal" ADD CONSTRAINT "DuplicateDismissal_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "Project"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "DuplicateDismissal" ADD CONSTRAINT "DuplicateDismissal_versionIdA_fkey" FOREIGN KEY ("versionIdA") REFERENCES "EnvironmentVersion"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "DuplicateDismissal" ADD CONSTRAINT "DuplicateDismissal_versionIdB_fkey" FOREIGN KEY ("versionIdB") REFERENCES "EnvironmentVersion"("id") ON DELETE CASCADE ON UPDATE CASCADE;
