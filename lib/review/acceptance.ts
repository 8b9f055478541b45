/**
 * Acceptance belongs to a version (pure rules, shared by the review queue, editors and datasets).
 *
 * Invariant kept by every writer: while an environment is ACCEPTED its current version is the
 * accepted one; an edit after acceptance moves it back to review and keeps the accepted version in
 * `acceptedVersionId` ("changed since accepted"). Scenarios do the same with their validator
 * versions (`acceptedValidatorVersionIds`). So rows that were set ACCEPTED by a seed or a trusted
 * import without naming a version still mean "the current version was accepted".
 */
export type EnvironmentAcceptance = {
  status: string;
  currentVersionId: string | null;
  acceptedVersionId: string | null;
};
export type ScenarioAcceptance = {
  status: string;
  acceptedValidatorVersionIds: unknown;
  currentValidatorVersionIds: string[];
};

export const idList = (value: unknown): string[] | null =>
  Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : null;

/** The environment version a reviewer accepted, or null when none is (or it was rejected). */
export function acceptedEnvironmentVersionId(env: EnvironmentAcceptance): string | null {
  if (env.status === "ACCEPTED") return env.currentVersionId;
  if (env.status === "REJECTED") return null;
  return env.acceptedVersionId;
}

/** The validator versions (checklist order) a reviewer accepted, or null when never accepted. */
export function acceptedValidatorVersionIds(scenario: ScenarioAcceptance): string[] | null {
  if (scenario.status === "ACCEPTED") return scenario.currentValidatorVersionIds;
  if (scenario.status === "REJECTED") return null;
  return idList(scenario.acceptedValidatorVersionIds);
}

/** Accepted once, but the current code is not the accepted one: back in the queue with a diff. */
export function isEnvironmentChangedSinceAccepted(env: EnvironmentAcceptance): boolean {
  const accepted = acceptedEnvironmentVersionId(env);
  return accepted !== null && accepted !== env.currentVersionId;
}

export function isScenarioChangedSinceAccepted(scenario: ScenarioAcceptance): boolean {
  const accepted = acceptedValidatorVersionIds(scenario);
  return accepted !== null && !sameIds(accepted, scenario.currentValidatorVersionIds);
}

export const sameIds = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((id, i) => id === b[i]);
