-- AlterTable
ALTER TABLE "LlmCall" ADD COLUMN     "unpriced" BOOLEAN NOT NULL DEFAULT false;
