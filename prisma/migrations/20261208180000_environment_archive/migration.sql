-- Archived environments: hidden from lists by default, recorded in the audit log.
ALTER TABLE "Environment" ADD COLUMN "archivedAt" TIMESTAMP(3);
ALTER TYPE "ReviewTarget" ADD VALUE 'ENVIRONMENT' BEFORE 'ENVIRONMENT_VERSION';
ALTER TYPE "Decision" ADD VALUE 'ARCHIVE';
ALTER TYPE "Decision" ADD VALUE 'UNARCHIVE';
