import type { Metadata } from "next";
import { orNotFound } from "@/app/or-not-found";
import { getDb } from "@/lib/db";
import { RunViewSchema } from "@/lib/pipeline/run-view.schema";
import { getRunProgress } from "@/lib/pipeline/server/get-run";
import { RunView } from "@/components/runs/run-view";
import { RepairButton } from "@/components/repair/repair-button";
import { roleAtLeast } from "@/lib/auth/roles";
import { currentUser } from "@/lib/auth/server/require-role";
import { launchRepairAction } from "@/app/review/actions";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Run" };

export default async function RunPage({ params }: { params: Promise<{ id: string }> }) {
  const [{ id }, user] = await Promise.all([params, currentUser()]);
  const progress = await orNotFound(getRunProgress(getDb(), id));
  // The shape the polling route answers (dates as strings), checked by the schema the page polls with.
  const view = <RunView initial={RunViewSchema.parse(JSON.parse(JSON.stringify(progress)))} />;
  // Proof runs name their scenarios: the failing ones among them can be repaired from here.
  if (progress.run.kind !== "PROOF" || !roleAtLeast(user.role, "REVIEWER")) return view;
  return (
    <div className="space-y-4">
      {view}
      <RepairButton target={{ kind: "run", id }} action={launchRepairAction} />
    </div>
  );
}
