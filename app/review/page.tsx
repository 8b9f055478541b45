import type { Metadata } from "next";
import { getDb } from "@/lib/db";
import { roleAtLeast } from "@/lib/auth/roles";
import { currentUser } from "@/lib/auth/server/require-role";
import { getDefaultProject } from "@/lib/projects/server/get-default-project";
import { QueueFilterSchema } from "@/lib/review/review.schema";
import { findReviewQueue } from "@/lib/review/server/find-review-queue";
import { findDatasets } from "@/lib/datasets/server/find-datasets";
import { ReviewQueue } from "@/components/review/review-queue";
import { ErrorState } from "@/components/ui/states";
import { formatZodIssues } from "@/lib/core/zod-issues";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Review queue" };

type Search = Record<string, string | string[] | undefined>;

export default async function ReviewPage({ searchParams }: { searchParams: Promise<Search> }) {
  const user = await currentUser();
  const raw = Object.fromEntries(
    Object.entries(await searchParams).map(([k, v]) => [k, (Array.isArray(v) ? v[0] : v) || undefined]),
  );
  const filter = QueueFilterSchema.safeParse(raw);
  if (!filter.success)
    return <ErrorState title="Bad filter" message={formatZodIssues(filter.error, { root: "filter" })} />;
  const db = getDb();
  const project = await getDefaultProject(db);
  // Read before the queue: "all matching" skips what was edited or added after the reviewer saw it.
  const loadedAt = new Date().toISOString();
  const [queue, datasets] = await Promise.all([
    findReviewQueue(db, project.id, filter.data, user),
    findDatasets(db, project.id),
  ]);
  return (
    <div className="space-y-4">
      <h1 className="text-2xl font-semibold tracking-tight">Review queue</h1>
      <ReviewQueue
        // A new sort keeps the page (and the selection); a new filter starts afresh.
        key={JSON.stringify({ ...filter.data, sort: undefined, dir: undefined })}
        items={queue.items}
        counts={queue.counts}
        matching={queue.matching}
        loadedAt={loadedAt}
        datasets={datasets.map((d) => ({ id: d.id, name: d.name }))}
        filter={filter.data}
        facets={queue.facets}
        canDecide={roleAtLeast(user.role, "REVIEWER")}
        decidedToday={queue.decidedToday}
        claimedByOthers={queue.claimedByOthers}
      />
    </div>
  );
}
