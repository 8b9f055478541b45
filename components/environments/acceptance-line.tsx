import Link from "next/link";

type Props = {
  environmentId: string;
  status: string;
  currentVersionId: string | null;
  acceptedVersionId: string | null;
  versions: { id: string; version: number }[];
};

/** Which version a reviewer accepted: "Accepted · version N", or "changed since accepted" with the diff. */
export function AcceptanceLine({
  environmentId,
  status,
  currentVersionId,
  acceptedVersionId,
  versions,
}: Props) {
  const numberOf = (id: string | null) => versions.find((v) => v.id === id)?.version;
  const current = numberOf(currentVersionId);
  if (status === "ACCEPTED")
    return (
      <p className="text-sm text-emerald-700" data-testid="acceptance">
        Accepted · version {current}
      </p>
    );
  const accepted = status === "REJECTED" ? undefined : numberOf(acceptedVersionId);
  if (accepted === undefined || acceptedVersionId === currentVersionId) return null;
  return (
    <p className="text-sm text-amber-800" data-testid="acceptance">
      Changed since accepted: version {accepted} was accepted, the code is now version {current} and is back
      in the review queue ·{" "}
      <Link href={`/environments/${environmentId}/versions?a=${accepted}&b=${current}`} className="underline">
        diff v{accepted} → v{current}
      </Link>
    </p>
  );
}
