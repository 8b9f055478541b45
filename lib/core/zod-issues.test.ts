import { describe, expect, it } from "vitest";
import { z } from "zod";
import { formatZodIssues, issuePath } from "./zod-issues";

const Schema = z.object({
  email: z.string().min(1, "enter an email"),
  tags: z.array(z.string()),
  nested: z.object({ n: z.number() }),
});
const failure = (value: unknown) => {
  const parsed = Schema.safeParse(value);
  if (parsed.success) throw new Error("expected the value to be refused");
  return parsed.error;
};

describe("formatZodIssues", () => {
  it("names each failing field by its dotted path", () => {
    const text = formatZodIssues(failure({ email: "", tags: ["a", 1], nested: { n: "x" } }));
    expect(text).toBe(
      "email: enter an email; tags.1: Invalid input: expected string, received number; nested.n: Invalid input: expected number, received string",
    );
  });

  it("calls an issue on the value itself by the root name", () => {
    expect(formatZodIssues(z.string().safeParse(1).error!)).toMatch(/^input: /);
    expect(formatZodIssues(z.string().safeParse(1).error!, { root: "answer" })).toMatch(/^answer: /);
  });

  it("keeps the first issues only when asked, with the separator asked for", () => {
    const error = failure({ email: "", tags: [1], nested: {} });
    expect(error.issues).toHaveLength(3);
    expect(formatZodIssues(error, { max: 1 })).toBe("email: enter an email");
    expect(formatZodIssues(error, { max: 2, separator: "\n" }).split("\n")).toHaveLength(2);
  });

  it("can leave paths out when the messages already say which field", () => {
    expect(formatZodIssues(failure({ email: "", tags: [], nested: { n: 1 } }), { withPath: false })).toBe(
      "enter an email",
    );
  });

  it("prints symbol keys instead of throwing", () => {
    expect(issuePath({ path: [Symbol("k"), 0], message: "m" })).toBe("Symbol(k).0");
  });

  it("still says something for an error without issues", () => {
    expect(formatZodIssues({ issues: [] }, { root: "body" })).toBe("body: invalid");
  });
});
