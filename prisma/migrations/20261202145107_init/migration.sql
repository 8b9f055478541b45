-- CreateEnum
CREATE TYPE "Role" AS ENUM ('ADMIN', 'REVIEWER', 'VIEWER');

-- CreateEnum
CREATE TYPE "EnvironmentStatus" AS ENUM ('DRAFT', 'GENERATING', 'CHECKING', 'IN_REVIEW', 'ACCEPTED', 'REJECTED', 'FAILED');

-- CreateEnum
CREATE TYPE "Origin" AS ENUM ('SAMPLE', 'PIPELINE', 'IMPORT', 'MANUAL');

-- CreateEnum
CREATE TYPE "RunKind" AS ENUM ('SKEL_BUILDER', 'SCEN_GENERATOR', 'ROLLOUT', 'PROOF');

-- CreateEnum
CREATE TYPE "RunStatus" AS ENUM ('QUEUED', 'RUNNING', 'SUCCEEDED', 'FAILED', 'CANCELLING', 'CANCELLED', 'BUDGET_EXCEEDED');

-- CreateEnum
CREATE TYPE "StepStatus" AS ENUM ('PENDING', 'RUNNING', 'SUCCEEDED', 'FAILED', 'SKIPPED', 'CANCELLED');

-- CreateEnum
CREATE TYPE "Verdict" AS ENUM ('PASS', 'WARNING', 'FAIL');

-- CreateEnum
CREATE TYPE "ReviewTarget" AS ENUM ('ENVIRONMENT_VERSION', 'SCENARIO', 'VALIDATOR', 'TRAJECTORY', 'QUALITY_PROBE');

-- CreateEnum
CREATE TYPE "Decision" AS ENUM ('ACCEPT', 'REJECT', 'CONFIRM', 'OVERRIDE', 'EDIT', 'COMMENT');

-- CreateEnum
CREATE TYPE "ScenarioStatus" AS ENUM ('DRAFT', 'IN_REVIEW', 'VERIFIED', 'ACCEPTED', 'REJECTED');

-- CreateEnum
CREATE TYPE "ProofStatus" AS ENUM ('PENDING', 'VERIFIED', 'FAILED', 'STALE');

-- CreateEnum
CREATE TYPE "TrajectoryStatus" AS ENUM ('COMPLETED', 'TRUNCATED', 'CRASHED');

-- CreateEnum
CREATE TYPE "Split" AS ENUM ('TRAIN', 'TEST');

-- CreateEnum
CREATE TYPE "ExportFormat" AS ENUM ('ENVSCALER_JSON', 'OPENAI_JSONL', 'LLAMAFACTORY_SHAREGPT', 'HF_DATASET', 'VERL_PARQUET', 'OPENENV_PACKAGE');

-- CreateEnum
CREATE TYPE "ExportStatus" AS ENUM ('QUEUED', 'RUNNING', 'SUCCEEDED', 'FAILED');

-- CreateTable
CREATE TABLE "User" (
    "id" TEXT NOT NULL,
    "email" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "role" "Role" NOT NULL DEFAULT 'VIEWER',
    "passwordHash" TEXT NOT NULL,
    "disabledAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "User_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Session" (
    "id" TEXT NOT NULL,
    "tokenHash" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "expiresAt" TIMESTAMP(3) NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lastSeenAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Session_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Setting" (
    "key" TEXT NOT NULL,
    "value" JSONB NOT NULL,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Setting_pkey" PRIMARY KEY ("key")
);

-- CreateTable
CREATE TABLE "Project" (
    "id" TEXT NOT NULL,
    "slug" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Project_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Environment" (
    "id" TEXT NOT NULL,
    "projectId" TEXT NOT NULL,
    "slug" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "domain" TEXT NOT NULL DEFAULT 'general',
    "status" "EnvironmentStatus" NOT NULL DEFAULT 'DRAFT',
    "origin" "Origin" NOT NULL,
    "toolCount" INTEGER NOT NULL DEFAULT 0,
    "currentVersionId" TEXT,
    "runId" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Environment_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "EnvironmentVersion" (
    "id" TEXT NOT NULL,
    "environmentId" TEXT NOT NULL,
    "version" INTEGER NOT NULL,
    "className" TEXT NOT NULL,
    "source" TEXT NOT NULL,
    "sourceHash" TEXT NOT NULL,
    "tools" JSONB NOT NULL DEFAULT '[]',
    "stateSchema" JSONB NOT NULL DEFAULT '[]',
    "rules" JSONB NOT NULL DEFAULT '[]',
    "operations" JSONB NOT NULL DEFAULT '[]',
    "metadata" JSONB NOT NULL DEFAULT '{}',
    "producedBy" TEXT NOT NULL,
    "authorId" TEXT,
    "runId" TEXT,
    "message" TEXT NOT NULL DEFAULT '',
    "parentVersionId" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "EnvironmentVersion_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "PipelineRun" (
    "id" TEXT NOT NULL,
    "projectId" TEXT NOT NULL,
    "kind" "RunKind" NOT NULL,
    "status" "RunStatus" NOT NULL DEFAULT 'QUEUED',
    "name" TEXT NOT NULL DEFAULT '',
    "config" JSONB NOT NULL DEFAULT '{}',
    "input" JSONB NOT NULL DEFAULT '{}',
    "createdById" TEXT,
    "promptTokens" INTEGER NOT NULL DEFAULT 0,
    "completionTokens" INTEGER NOT NULL DEFAULT 0,
    "costUsd" DECIMAL(14,6) NOT NULL DEFAULT 0,
    "maxTokens" INTEGER,
    "maxCostUsd" DECIMAL(14,6),
    "errorMessage" TEXT,
    "cancelRequestedAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "startedAt" TIMESTAMP(3),
    "finishedAt" TIMESTAMP(3),

    CONSTRAINT "PipelineRun_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "PipelineStep" (
    "id" TEXT NOT NULL,
    "runId" TEXT NOT NULL,
    "subjectKey" TEXT NOT NULL,
    "stage" TEXT NOT NULL,
    "status" "StepStatus" NOT NULL DEFAULT 'PENDING',
    "environmentId" TEXT,
    "attempt" INTEGER NOT NULL DEFAULT 0,
    "input" JSONB NOT NULL DEFAULT '{}',
    "output" JSONB,
    "errorCode" TEXT,
    "errorMessage" TEXT,
    "retryable" BOOLEAN,
    "promptTokens" INTEGER NOT NULL DEFAULT 0,
    "completionTokens" INTEGER NOT NULL DEFAULT 0,
    "costUsd" DECIMAL(14,6) NOT NULL DEFAULT 0,
    "queuedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "startedAt" TIMESTAMP(3),
    "finishedAt" TIMESTAMP(3),
    "durationMs" INTEGER,

    CONSTRAINT "PipelineStep_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "EnvironmentTopic" (
    "id" TEXT NOT NULL,
    "runId" TEXT NOT NULL,
    "sourceTask" TEXT NOT NULL,
    "summary" TEXT NOT NULL,
    "introduction" TEXT NOT NULL,
    "usefulness" INTEGER NOT NULL,
    "modelability" INTEGER NOT NULL,
    "clusterKey" TEXT,
    "kept" BOOLEAN NOT NULL DEFAULT false,
    "environmentId" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "EnvironmentTopic_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "LlmCacheEntry" (
    "cacheKey" TEXT NOT NULL,
    "model" TEXT NOT NULL,
    "response" JSONB NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "LlmCacheEntry_pkey" PRIMARY KEY ("cacheKey")
);

-- CreateTable
CREATE TABLE "LlmCall" (
    "id" TEXT NOT NULL,
    "cacheKey" TEXT NOT NULL,
    "model" TEXT NOT NULL,
    "request" JSONB NOT NULL,
    "response" JSONB,
    "cached" BOOLEAN NOT NULL DEFAULT false,
    "promptTokens" INTEGER NOT NULL DEFAULT 0,
    "completionTokens" INTEGER NOT NULL DEFAULT 0,
    "costUsd" DECIMAL(14,6) NOT NULL DEFAULT 0,
    "latencyMs" INTEGER NOT NULL DEFAULT 0,
    "errorMessage" TEXT,
    "runId" TEXT,
    "stepId" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "LlmCall_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "QualityCheck" (
    "id" TEXT NOT NULL,
    "environmentVersionId" TEXT NOT NULL,
    "runId" TEXT,
    "testState" JSONB NOT NULL,
    "rounds" INTEGER NOT NULL,
    "passCount" INTEGER NOT NULL DEFAULT 0,
    "warningCount" INTEGER NOT NULL DEFAULT 0,
    "failCount" INTEGER NOT NULL DEFAULT 0,
    "passRate" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "notFailRate" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "threshold" DOUBLE PRECISION NOT NULL DEFAULT 0.85,
    "passed" BOOLEAN NOT NULL DEFAULT false,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "QualityCheck_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "QualityProbe" (
    "id" TEXT NOT NULL,
    "qualityCheckId" TEXT NOT NULL,
    "index" INTEGER NOT NULL,
    "kind" TEXT NOT NULL,
    "toolName" TEXT NOT NULL,
    "arguments" JSONB NOT NULL,
    "observation" JSONB,
    "stateDiff" JSONB,
    "verdict" "Verdict" NOT NULL,
    "rationale" TEXT NOT NULL,
    "reviewerVerdict" "Verdict",
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "QualityProbe_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ReviewDecision" (
    "id" TEXT NOT NULL,
    "projectId" TEXT NOT NULL,
    "actorId" TEXT,
    "targetType" "ReviewTarget" NOT NULL,
    "targetId" TEXT NOT NULL,
    "decision" "Decision" NOT NULL,
    "reason" TEXT NOT NULL DEFAULT '',
    "before" JSONB,
    "after" JSONB,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ReviewDecision_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ReviewClaim" (
    "targetType" "ReviewTarget" NOT NULL,
    "targetId" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "expiresAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "ReviewClaim_pkey" PRIMARY KEY ("targetType","targetId")
);

-- CreateTable
CREATE TABLE "Scenario" (
    "id" TEXT NOT NULL,
    "environmentId" TEXT NOT NULL,
    "environmentVersionId" TEXT NOT NULL,
    "externalId" TEXT NOT NULL,
    "initialState" JSONB NOT NULL,
    "task" TEXT NOT NULL,
    "taskHash" TEXT NOT NULL,
    "checklist" JSONB NOT NULL DEFAULT '[]',
    "goldCalls" JSONB,
    "status" "ScenarioStatus" NOT NULL DEFAULT 'DRAFT',
    "proofStatus" "ProofStatus" NOT NULL DEFAULT 'PENDING',
    "proofReasons" JSONB NOT NULL DEFAULT '[]',
    "origin" "Origin" NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Scenario_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Validator" (
    "id" TEXT NOT NULL,
    "scenarioId" TEXT NOT NULL,
    "position" INTEGER NOT NULL,
    "checkItem" TEXT NOT NULL,
    "currentVersionId" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Validator_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ValidatorVersion" (
    "id" TEXT NOT NULL,
    "validatorId" TEXT NOT NULL,
    "version" INTEGER NOT NULL,
    "code" TEXT NOT NULL,
    "authorId" TEXT,
    "producedBy" TEXT NOT NULL,
    "message" TEXT NOT NULL DEFAULT '',
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ValidatorVersion_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ValidatorProof" (
    "id" TEXT NOT NULL,
    "scenarioId" TEXT NOT NULL,
    "environmentVersionId" TEXT NOT NULL,
    "validatorVersionIds" JSONB NOT NULL,
    "status" "ProofStatus" NOT NULL,
    "noop" JSONB NOT NULL,
    "gold" JSONB NOT NULL,
    "sensitivity" JSONB NOT NULL,
    "reasons" JSONB NOT NULL DEFAULT '[]',
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ValidatorProof_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Trajectory" (
    "id" TEXT NOT NULL,
    "scenarioId" TEXT NOT NULL,
    "environmentVersionId" TEXT NOT NULL,
    "validatorVersionIds" JSONB NOT NULL DEFAULT '[]',
    "runId" TEXT,
    "rolloutIndex" INTEGER NOT NULL DEFAULT 0,
    "model" TEXT NOT NULL,
    "mode" TEXT NOT NULL,
    "messages" JSONB NOT NULL,
    "steps" JSONB NOT NULL,
    "finalState" JSONB NOT NULL,
    "checkResults" JSONB NOT NULL,
    "reward" DOUBLE PRECISION NOT NULL,
    "status" "TrajectoryStatus" NOT NULL,
    "stepCount" INTEGER NOT NULL,
    "sftPass" BOOLEAN,
    "flagReason" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Trajectory_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Dataset" (
    "id" TEXT NOT NULL,
    "projectId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Dataset_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "DatasetVersion" (
    "id" TEXT NOT NULL,
    "datasetId" TEXT NOT NULL,
    "version" INTEGER NOT NULL,
    "seed" INTEGER NOT NULL,
    "testRatio" DOUBLE PRECISION NOT NULL DEFAULT 0.2,
    "stats" JSONB NOT NULL DEFAULT '{}',
    "changelog" JSONB NOT NULL DEFAULT '{}',
    "createdById" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "DatasetVersion_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "DatasetItem" (
    "id" TEXT NOT NULL,
    "datasetVersionId" TEXT NOT NULL,
    "scenarioId" TEXT NOT NULL,
    "environmentVersionId" TEXT NOT NULL,
    "validatorVersionIds" JSONB NOT NULL,
    "split" "Split" NOT NULL,

    CONSTRAINT "DatasetItem_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Export" (
    "id" TEXT NOT NULL,
    "datasetVersionId" TEXT NOT NULL,
    "format" "ExportFormat" NOT NULL,
    "status" "ExportStatus" NOT NULL DEFAULT 'QUEUED',
    "options" JSONB NOT NULL DEFAULT '{}',
    "processed" INTEGER NOT NULL DEFAULT 0,
    "total" INTEGER NOT NULL DEFAULT 0,
    "filePath" TEXT,
    "byteSize" BIGINT,
    "errorMessage" TEXT,
    "createdById" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finishedAt" TIMESTAMP(3),

    CONSTRAINT "Export_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "User_email_key" ON "User"("email");

-- CreateIndex
CREATE UNIQUE INDEX "Session_tokenHash_key" ON "Session"("tokenHash");

-- CreateIndex
CREATE INDEX "Session_userId_idx" ON "Session"("userId");

-- CreateIndex
CREATE UNIQUE INDEX "Project_slug_key" ON "Project"("slug");

-- CreateIndex
CREATE UNIQUE INDEX "Environment_currentVersionId_key" ON "Environment"("currentVersionId");

-- CreateIndex
CREATE INDEX "Environment_projectId_status_updatedAt_idx" ON "Environment"("projectId", "status", "updatedAt" DESC);

-- CreateIndex
CREATE INDEX "Environment_projectId_domain_idx" ON "Environment"("projectId", "domain");

-- CreateIndex
CREATE INDEX "Environment_projectId_updatedAt_idx" ON "Environment"("projectId", "updatedAt" DESC);

-- CreateIndex
CREATE UNIQUE INDEX "Environment_projectId_slug_key" ON "Environment"("projectId", "slug");

-- CreateIndex
CREATE INDEX "EnvironmentVersion_environmentId_createdAt_idx" ON "EnvironmentVersion"("environmentId", "createdAt" DESC);

-- CreateIndex
CREATE UNIQUE INDEX "EnvironmentVersion_environmentId_version_key" ON "EnvironmentVersion"("environmentId", "version");

-- CreateIndex
CREATE INDEX "PipelineRun_projectId_createdAt_idx" ON "PipelineRun"("projectId", "createdAt" DESC);

-- CreateIndex
CREATE INDEX "PipelineRun_status_idx" ON "PipelineRun"("status");

-- CreateIndex
CREATE INDEX "PipelineStep_runId_status_idx" ON "PipelineStep"("runId", "status");

-- CreateIndex
CREATE INDEX "PipelineStep_environmentId_idx" ON "PipelineStep"("environmentId");

-- CreateIndex
CREATE UNIQUE INDEX "PipelineStep_runId_subjectKey_stage_key" ON "PipelineStep"("runId", "subjectKey", "stage");

-- CreateIndex
CREATE INDEX "EnvironmentTopic_runId_idx" ON "EnvironmentTopic"("runId");

-- CreateIndex
CREATE INDEX "LlmCall_runId_createdAt_idx" ON "LlmCall"("runId", "createdAt");

-- CreateIndex
CREATE INDEX "LlmCall_stepId_idx" ON "LlmCall"("stepId");

-- CreateIndex
CREATE INDEX "LlmCall_cacheKey_idx" ON "LlmCall"("cacheKey");

-- CreateIndex
CREATE INDEX "LlmCall_createdAt_idx" ON "LlmCall"("createdAt");

-- CreateIndex
CREATE INDEX "QualityCheck_environmentVersionId_createdAt_idx" ON "QualityCheck"("environmentVersionId", "createdAt" DESC);

-- CreateIndex
CREATE UNIQUE INDEX "QualityProbe_qualityCheckId_index_key" ON "QualityProbe"("qualityCheckId", "index");

-- CreateIndex
CREATE INDEX "ReviewDecision_targetType_targetId_createdAt_idx" ON "ReviewDecision"("targetType", "targetId", "createdAt");

-- CreateIndex
CREATE INDEX "ReviewDecision_projectId_createdAt_idx" ON "ReviewDecision"("projectId", "createdAt" DESC);

-- CreateIndex
CREATE INDEX "ReviewClaim_userId_idx" ON "ReviewClaim"("userId");

-- CreateIndex
CREATE INDEX "Scenario_environmentId_status_idx" ON "Scenario"("environmentId", "status");

-- CreateIndex
CREATE INDEX "Scenario_environmentVersionId_idx" ON "Scenario"("environmentVersionId");

-- CreateIndex
CREATE INDEX "Scenario_status_proofStatus_idx" ON "Scenario"("status", "proofStatus");

-- CreateIndex
CREATE UNIQUE INDEX "Scenario_environmentId_externalId_key" ON "Scenario"("environmentId", "externalId");

-- CreateIndex
CREATE UNIQUE INDEX "Validator_currentVersionId_key" ON "Validator"("currentVersionId");

-- CreateIndex
CREATE UNIQUE INDEX "Validator_scenarioId_position_key" ON "Validator"("scenarioId", "position");

-- CreateIndex
CREATE UNIQUE INDEX "ValidatorVersion_validatorId_version_key" ON "ValidatorVersion"("validatorId", "version");

-- CreateIndex
CREATE INDEX "ValidatorProof_scenarioId_createdAt_idx" ON "ValidatorProof"("scenarioId", "createdAt" DESC);

-- CreateIndex
CREATE INDEX "Trajectory_scenarioId_createdAt_idx" ON "Trajectory"("scenarioId", "createdAt" DESC);

-- CreateIndex
CREATE INDEX "Trajectory_flagReason_idx" ON "Trajectory"("flagReason");

-- CreateIndex
CREATE UNIQUE INDEX "Trajectory_runId_scenarioId_rolloutIndex_key" ON "Trajectory"("runId", "scenarioId", "rolloutIndex");

-- CreateIndex
CREATE UNIQUE INDEX "Dataset_projectId_name_key" ON "Dataset"("projectId", "name");

-- CreateIndex
CREATE UNIQUE INDEX "DatasetVersion_datasetId_version_key" ON "DatasetVersion"("datasetId", "version");

-- CreateIndex
CREATE INDEX "DatasetItem_datasetVersionId_split_idx" ON "DatasetItem"("datasetVersionId", "split");

-- CreateIndex
CREATE UNIQUE INDEX "DatasetItem_datasetVersionId_scenarioId_key" ON "DatasetItem"("datasetVersionId", "scenarioId");

-- CreateIndex
CREATE INDEX "Export_datasetVersionId_createdAt_idx" ON "Export"("datasetVersionId", "createdAt" DESC);

-- CreateIndex
CREATE UNIQUE INDEX "Export_datasetVersionId_format_createdAt_key" ON "Export"("datasetVersionId", "format", "createdAt");

-- AddForeignKey
ALTER TABLE "Session" ADD CONSTRAINT "Session_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Environment" ADD CONSTRAINT "Environment_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "Project"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Environment" ADD CONSTRAINT "Environment_currentVersionId_fkey" FOREIGN KEY ("currentVersionId") REFERENCES "EnvironmentVersion"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Environment" ADD CONSTRAINT "Environment_runId_fkey" FOREIGN KEY ("runId") REFERENCES "PipelineRun"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "EnvironmentVersion" ADD CONSTRAINT "EnvironmentVersion_environmentId_fkey" FOREIGN KEY ("environmentId") REFERENCES "Environment"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "EnvironmentVersion" ADD CONSTRAINT "EnvironmentVersion_parentVersionId_fkey" FOREIGN KEY ("parentVersionId") REFERENCES "EnvironmentVersion"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "PipelineRun" ADD CONSTRAINT "PipelineRun_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "Project"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "PipelineStep" ADD CONSTRAINT "PipelineStep_runId_fkey" FOREIGN KEY ("runId") REFERENCES "PipelineRun"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "PipelineStep" ADD CONSTRAINT "PipelineStep_environmentId_fkey" FOREIGN KEY ("environmentId") REFERENCES "Environment"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "EnvironmentTopic" ADD CONSTRAINT "EnvironmentTopic_runId_fkey" FOREIGN KEY ("runId") REFERENCES "PipelineRun"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "EnvironmentTopic" ADD CONSTRAINT "EnvironmentTopic_environmentId_fkey" FOREIGN KEY ("environmentId") REFERENCES "Environment"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "LlmCall" ADD CONSTRAINT "LlmCall_runId_fkey" FOREIGN KEY ("runId") REFERENCES "PipelineRun"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "LlmCall" ADD CONSTRAINT "LlmCall_stepId_fkey" FOREIGN KEY ("stepId") REFERENCES "PipelineStep"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "QualityCheck" ADD CONSTRAINT "QualityCheck_environmentVersionId_fkey" FOREIGN KEY ("environmentVersionId") REFERENCES "EnvironmentVersion"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "QualityProbe" ADD CONSTRAINT "QualityProbe_qualityCheckId_fkey" FOREIGN KEY ("qualityCheckId") REFERENCES "QualityCheck"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ReviewDecision" ADD CONSTRAINT "ReviewDecision_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "Project"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ReviewDecision" ADD CONSTRAINT "ReviewDecision_actorId_fkey" FOREIGN KEY ("actorId") REFERENCES "User"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ReviewClaim" ADD CONSTRAINT "ReviewClaim_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Scenario" ADD CONSTRAINT "Scenario_environmentId_fkey" FOREIGN KEY ("environmentId") REFERENCES "Environment"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Scenario" ADD CONSTRAINT "Scenario_environmentVersionId_fkey" FOREIGN KEY ("environmentVersionId") REFERENCES "EnvironmentVersion"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Validator" ADD CONSTRAINT "Validator_scenarioId_fkey" FOREIGN KEY ("scenarioId") REFERENCES "Scenario"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Validator" ADD CONSTRAINT "Validator_currentVersionId_fkey" FOREIGN KEY ("currentVersionId") REFERENCES "ValidatorVersion"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ValidatorVersion" ADD CONSTRAINT "ValidatorVersion_validatorId_fkey" FOREIGN KEY ("validatorId") REFERENCES "Validator"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ValidatorProof" ADD CONSTRAINT "ValidatorProof_scenarioId_fkey" FOREIGN KEY ("scenarioId") REFERENCES "Scenario"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ValidatorProof" ADD CONSTRAINT "ValidatorProof_environmentVersionId_fkey" FOREIGN KEY ("environmentVersionId") REFERENCES "EnvironmentVersion"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Trajectory" ADD CONSTRAINT "Trajectory_scenarioId_fkey" FOREIGN KEY ("scenarioId") REFERENCES "Scenario"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Trajectory" ADD CONSTRAINT "Trajectory_environmentVersionId_fkey" FOREIGN KEY ("environmentVersionId") REFERENCES "EnvironmentVersion"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Trajectory" ADD CONSTRAINT "Trajectory_runId_fkey" FOREIGN KEY ("runId") REFERENCES "PipelineRun"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Dataset" ADD CONSTRAINT "Dataset_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "Project"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "DatasetVersion" ADD CONSTRAINT "DatasetVersion_datasetId_fkey" FOREIGN KEY ("datasetId") REFERENCES "Dataset"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "DatasetItem" ADD CONSTRAINT "DatasetItem_datasetVersionId_fkey" FOREIGN KEY ("datasetVersionId") REFERENCES "DatasetVersion"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "DatasetItem" ADD CONSTRAINT "DatasetItem_scenarioId_fkey" FOREIGN KEY ("scenarioId") REFERENCES "Scenario"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "DatasetItem" ADD CONSTRAINT "DatasetItem_environmentVersionId_fkey" FOREIGN KEY ("environmentVersionId") REFERENCES "EnvironmentVersion"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Export" ADD CONSTRAINT "Export_datasetVersionId_fkey" FOREIGN KEY ("datasetVersionId") REFERENCES "DatasetVersion"("id") ON DELETE CASCADE ON UPDATE CASCADE;
