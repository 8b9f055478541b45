import type { Metadata } from "next";
import { orNotFound } from "@/app/or-not-found";
import { getDb } from "@/lib/db";
import { RunViewSchema } from "@/lib/pipeline/run-view.schema";
import { getRunProgress } from "@/lib/pipeline/server/get-run";
import { RunView } from "@/components/runs/run-view";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Run" };

export default async function RunPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const progress = await orNotFound(getRunProgress(getDb(), id));
  // The shape the polling route answers (dates as strings), checked by the schema the page polls with.
  return <RunView initial={RunViewSchema.parse(JSON.parse(JSON.stringify(progress)))} />;
}
