-- CreateTable
CREATE TABLE "LlmEndpointSlot" (
    "endpoint" TEXT NOT NULL,
    "slot" INTEGER NOT NULL,
    "holder" TEXT,
    "expiresAt" TIMESTAMP(3),

    CONSTRAINT "LlmEndpointSlot_pkey" PRIMARY KEY ("endpoint","slot")
);

-- CreateTable
CREATE TABLE "LlmEndpointRate" (
    "endpoint" TEXT NOT NULL,
    "tokens" DOUBLE PRECISION NOT NULL,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "LlmEndpointRate_pkey" PRIMARY KEY ("endpoint")
);
