import { describe, expect, it } from "vitest";
import { domainLabel, environmentName, runName } from "./naming";

describe("environment names", () => {
  it("reads like a title: no leading article, capitalised, no trailing punctuation", () => {
    expect(environmentName("A public library lending desk with holds and fines.")).toBe(
      "Public library lending desk with holds and fines",
    );
    expect(environmentName("the clinic's appointment book")).toBe("Clinic's appointment book");
  });

  it("turns slug soup and class names into words", () => {
    expect(environmentName("library_lending-desk")).toBe("Library lending desk");
    expect(environmentName("LibraryLendingSystem")).toBe("Library Lending System");
  });

  it("takes the first non-empty line and cuts a long one at a word", () => {
    expect(environmentName("\n  Warehouse stock  \nwith more detail")).toBe("Warehouse stock");
    const long = environmentName(
      "An airline reservation system with seat maps, fare classes, loyalty tiers and rebooking rules",
    );
    expect(long).toBe("Airline reservation system with seat maps, fare classes…");
    expect(long.length).toBeLessThanOrEqual(61);
  });

  it("never returns an empty name", () => {
    expect(environmentName("  ")).toBe("Untitled environment");
  });
});

describe("run names", () => {
  it("names a run after its idea, not '1 idea'", () => {
    expect(runName({ kind: "ideas", ideas: ["a library lending desk"] })).toBe("Library lending desk");
    expect(runName({ kind: "ideas", ideas: ["a library desk", "a clinic", "a shop"] })).toBe(
      "Library desk and 2 more",
    );
  });

  it("counts tasks in the right number", () => {
    expect(runName({ kind: "tasks", tasks: ["x"] })).toBe("1 task");
    expect(runName({ kind: "tasks", tasks: ["x", "y"], fileName: "t.jsonl" })).toBe("2 tasks from t.jsonl");
  });
});

describe("domain labels", () => {
  it("normalises what the model says and falls back to general", () => {
    expect(domainLabel("Library Services")).toBe("library services");
    expect(domainLabel("E-commerce!")).toBe("e-commerce");
    expect(domainLabel("operating_systems")).toBe("operating systems");
    expect(domainLabel("")).toBe("general");
    expect(domainLabel(undefined)).toBe("general");
  });
});
