import type { ReactNode } from "react";

const TONES = {
  gray: "bg-slate-100 text-slate-700 ring-slate-200",
  green: "bg-emerald-50 text-emerald-700 ring-emerald-200",
  amber: "bg-amber-50 text-amber-800 ring-amber-200",
  red: "bg-rose-50 text-rose-700 ring-rose-200",
  blue: "bg-sky-50 text-sky-700 ring-sky-200",
  violet: "bg-violet-50 text-violet-700 ring-violet-200",
} as const;
export type BadgeTone = keyof typeof TONES;

export function Badge({
  tone = "gray",
  children,
  title,
}: {
  tone?: BadgeTone;
  children: ReactNode;
  title?: string;
}) {
  return (
    <span
      title={title}
      className={`inline-flex items-center rounded-full px-2 py-0.5 text-xs font-medium ring-1 ring-inset ${TONES[tone]}`}
    >
      {children}
    </span>
  );
}

const STATUS_TONES: Record<string, BadgeTone> = {
  ACCEPTED: "green",
  VERIFIED: "green",
  SUCCEEDED: "green",
  IN_REVIEW: "amber",
  CHECKING: "blue",
  GENERATING: "blue",
  RUNNING: "blue",
  QUEUED: "gray",
  DRAFT: "gray",
  PENDING: "gray",
  REJECTED: "red",
  FAILED: "red",
};

export const statusLabel = (status: string) =>
  status.charAt(0) + status.slice(1).toLowerCase().replaceAll("_", " ");

export function StatusBadge({ status }: { status: string }) {
  return <Badge tone={STATUS_TONES[status] ?? "gray"}>{statusLabel(status)}</Badge>;
}

export function SampleBadge() {
  return (
    <Badge tone="violet" title="Hand-written sample shipped with EnvStudio">
      Sample
    </Badge>
  );
}

/** The offline demo's label: its model answers with canned replies, not an LLM. */
export function DemoModelBadge() {
  return (
    <span data-testid="demo-badge">
      <Badge tone="violet" title="The offline demo: replies are scripted from the sample environments">
        demo model — canned replies
      </Badge>
    </span>
  );
}
