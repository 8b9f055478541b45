import { describe, expect, it } from "vitest";
import { reasonSentence, shortTitle } from "./queue-text";

describe("queue text", () => {
  it("reads proof reasons as sentences, never as raw JSON", () => {
    expect(
      reasonSentence({
        code: "FAILS_ON_GOLD",
        position: 1,
        message: "check 2 fails after the gold solution (scenario)",
      }),
    ).toBe("Check 2 fails after the gold solution (scenario).");
    expect(reasonSentence("gold run fails check 2")).toBe("Gold run fails check 2.");
    expect(reasonSentence({ code: "UNKNOWN_THING" })).toBe(
      "The proof reported a problem without a description.",
    );
  });

  it("cuts long titles at a word boundary", () => {
    const task =
      "Renew the loan of the book The Left Hand of Darkness for member M-1002 and then reserve another copy";
    const short = shortTitle(task, 40);
    expect(short).toBe("Renew the loan of the book The Left…");
    expect(task.startsWith(short.slice(0, -1))).toBe(true);
    expect(shortTitle("short task")).toBe("short task");
  });
});
