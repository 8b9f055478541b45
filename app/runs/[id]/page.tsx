import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { isAppError } from "@/lib/core/errors";
import { getDb } from "@/lib/db";
import type { RunView as RunData } from "@/lib/pipeline/run-view.types";
import { getRunProgress } from "@/lib/pipeline/server/get-run";
import { RunView } from "@/components/runs/run-view";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Run" };

export default async function RunPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  try {
    const progress = await getRunProgress(getDb(), id);
    // Same JSON shape the polling route returns (dates as strings).
    return <RunView initial={JSON.parse(JSON.stringify(progress)) as RunData} />;
  } catch (e) {
    if (isAppError(e) && e.code === "NOT_FOUND") notFound();
    throw e;
  }
}
