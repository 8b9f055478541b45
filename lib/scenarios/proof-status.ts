/**
 * A proof belongs to versions (pure): the proof status of a scenario's checks is the status of the
 * newest ValidatorProof row whose pins are exactly the environment version and the validator
 * versions (checklist order) in question. Without such a row the checks are unproven: STALE when
 * other versions were proven, PENDING when none were. Nothing unpinned (the scenario's own
 * `proofStatus` column, a proof of older checks) ever makes checks VERIFIED; accepting, the review
 * queue and dataset plans all ask this function.
 */
import { idList, sameIds } from "../review/acceptance";

export type ProofPins = { environmentVersionId: string; validatorVersionIds: readonly string[] };
export type ProofRow = ProofPins & { status: string };
export type PinnedProofStatus = "VERIFIED" | "FAILED" | "STALE" | "PENDING";

/** A ValidatorProof row as stored (its version ids are JSON) → a ProofRow. */
export const proofRowOf = (p: {
  environmentVersionId: string;
  validatorVersionIds: unknown;
  status: string;
}) => ({
  environmentVersionId: p.environmentVersionId,
  validatorVersionIds: idList(p.validatorVersionIds) ?? [],
  status: p.status,
});

export const isSamePins = (a: ProofPins, b: ProofPins) =>
  a.environmentVersionId === b.environmentVersionId && sameIds(a.validatorVersionIds, b.validatorVersionIds);

/** `proofs` newest first. */
export function pinnedProofStatus(proofs: readonly ProofRow[], pins: ProofPins): PinnedProofStatus {
  const row = proofs.find((p) => isSamePins(p, pins));
  if (row) return row.status === "VERIFIED" ? "VERIFIED" : "FAILED";
  return proofs.length > 0 ? "STALE" : "PENDING";
}
