import { describe, expect, it } from "vitest";
import { findLeaks, leakCandidate, occursIn } from "./leakage";

describe("answer leakage rule", () => {
  it("flags a gold argument the task states verbatim, ignoring case, a line break counting as a space", () => {
    const leaks = findLeaks("Email the ORGANISER at\nalice.smith@example.com about the delay.", [
      { name: "send_email", arguments: { to: "Alice.Smith@example.com", subject: "Running late" } },
    ]);
    expect(leaks).toEqual([{ call: "send_email", path: "to", value: "alice.smith@example.com" }]);
  });

  it("flags nested values and long numbers with their path", () => {
    const leaks = findLeaks("Set the budget to 25000 and the title to Quarterly Review.", [
      { name: "update", arguments: { plan: { budget: 25000, tags: ["quarterly review", "q3"] } } },
    ]);
    expect(leaks.map((l) => l.path)).toEqual(["plan.budget", "plan.tags[0]"]);
  });

  it("ignores booleans, null, short numbers and short strings", () => {
    expect(leakCandidate("x", true)).toBeNull();
    expect(leakCandidate("x", null)).toBeNull();
    expect(leakCandidate("nights", 3)).toBeNull();
    expect(leakCandidate("price", 2.5)).toBeNull();
    expect(leakCandidate("price", 120.5)).toBe("120.5");
    expect(leakCandidate("seat", "12A")).toBeNull();
    expect(
      findLeaks("Book 3 nights, no breakfast, seat 12A.", [
        { name: "book", arguments: { nights: 3, breakfast: false, seat: "12A" } },
      ]),
    ).toEqual([]);
  });

  it("ignores ids the task must name: id parameters and id-like values", () => {
    expect(leakCandidate("user_id", "alice")).toBeNull();
    expect(leakCandidate("flightId", "lufthansa")).toBeNull();
    expect(leakCandidate("ids", "anything")).toBeNull();
    expect(leakCandidate("paid", "by card")).toBe("by card");
    expect(leakCandidate("order", "ORD-1001")).toBeNull();
    expect(leakCandidate("ref", "3f2a9c1e-77b0-4a51-9a8e-0c1d2e3f4a5b")).toBeNull();
    expect(
      findLeaks("Cancel order ORD-1001 for member alice.", [
        { name: "cancel", arguments: { order: "ORD-1001", member_id: "alice" } },
      ]),
    ).toEqual([]);
    // A value with a space is text, not an id, even with a digit.
    expect(leakCandidate("address", "12 Baker Street")).toBe("12 baker street");
  });

  it("matches at word boundaries only", () => {
    expect(occursIn("The password is hunter22.", "hunter")).toBe(false);
    expect(occursIn("Call (555) 010-9999 now", "(555) 010-9999")).toBe(true);
    expect(
      findLeaks("Rename the folder to archives", [{ name: "rename", arguments: { name: "archive" } }]),
    ).toEqual([]);
  });

  it("reports nothing for calls without arguments", () => {
    expect(findLeaks("List everything", [{ name: "list_all" }])).toEqual([]);
  });
});
