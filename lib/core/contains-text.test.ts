import { describe, expect, it } from "vitest";
import { containsText, likeLiteral } from "./contains-text";

describe("search text as a literal ILIKE pattern", () => {
  it("escapes the pattern characters and the escape character, and leaves the rest", () => {
    expect(likeLiteral("50% off_now\\")).toBe("50\\% off\\_now\\\\");
    expect(likeLiteral("Harbour library #0079")).toBe("Harbour library #0079");
    expect(containsText("a_b")).toEqual({ contains: "a\\_b", mode: "insensitive" });
  });
});
