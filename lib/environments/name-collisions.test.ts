import { describe, expect, it } from "vitest";
import { collidingNames, distinctName } from "./name-collisions";

describe("names shared by several environments", () => {
  it("are the names of two or more distinct environments, not repeats of one", () => {
    const clash = collidingNames([
      { id: "a", name: "Library desk" },
      { id: "b", name: "Library desk" },
      { id: "c", name: "Clinic" },
      { id: "c", name: "Clinic" },
    ]);
    expect([...clash]).toEqual(["Library desk"]);
    expect(distinctName({ name: "Library desk", slug: "library-desk-x1" }, clash)).toBe(
      "Library desk (library-desk-x1)",
    );
    expect(distinctName({ name: "Clinic", slug: "clinic" }, clash)).toBe("Clinic");
  });
});
