import type { Metadata } from "next";
import { orNotFound } from "@/app/or-not-found";
import { getDb } from "@/lib/db";
import type { RunView as RunData } from "@/lib/pipeline/run-view.schema";
import { getRunProgress } from "@/lib/pipeline/server/get-run";
import { RunView } from "@/components/runs/run-view";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Run" };

export default async function RunPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const progress = await orNotFound(getRunProgress(getDb(), id));
  // Same JSON shape the polling route returns (dates as strings).
  return <RunView initial={JSON.parse(JSON.stringify(progress)) as RunData} />;
}
