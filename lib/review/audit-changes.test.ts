import { describe, expect, it } from "vitest";
import { describeChanges } from "./audit-changes";

describe("describeChanges", () => {
  it("lists changed fields without internal ids", () => {
    expect(
      describeChanges(
        { status: "IN_REVIEW", acceptedVersionId: null },
        { status: "ACCEPTED", version: 1, acceptedVersionId: "cm9x0abc", validatorVersionIds: ["a", "b"] },
      ),
    ).toEqual([
      { field: "status", before: "IN_REVIEW", after: "ACCEPTED" },
      { field: "version", before: "—", after: "1" },
    ]);
  });

  it("keeps fields only the before had, and unchanged fields out", () => {
    expect(
      describeChanges({ judgeVerdict: "FAIL", reviewerVerdict: null }, { reviewerVerdict: "PASS" }),
    ).toEqual([
      { field: "reviewerVerdict", before: "—", after: "PASS" },
      { field: "judgeVerdict", before: "FAIL", after: null },
    ]);
    expect(describeChanges({ a: 1 }, { a: 1 })).toEqual([]);
  });

  it("shortens long values and treats scalars as one value", () => {
    const long = "x".repeat(500);
    const [change] = describeChanges({ reason: "" }, { reason: long });
    expect(change?.after?.length).toBe(80);
    expect(change?.after?.endsWith("…")).toBe(true);
    expect(describeChanges(null, "done")).toEqual([{ field: "value", before: "—", after: "done" }]);
    expect(describeChanges(null, undefined)).toEqual([]);
  });
});
