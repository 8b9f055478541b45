/** The one read boundary of Trajectory.messages: the rollout shape, older wire-shape rows, and junk. */
import { describe, expect, it } from "vitest";
import { readTrajectoryMessages } from "./stored-messages";

describe("readTrajectoryMessages", () => {
  it("reads what a rollout stores", () => {
    const stored = {
      agent: [
        { role: "system", content: "s" },
        { role: "user", content: "task" },
        { role: "assistant", content: null, toolCalls: [{ id: "c1", name: "get", arguments: "{}" }] },
        { role: "tool", toolCallId: "c1", content: '{"success":true}' },
        { role: "assistant", content: "Task Completed" },
      ],
      user: [{ role: "system", content: "you are the user" }],
      endReason: "agent_replied",
      finalText: "Task Completed",
      score: 1,
    };
    expect(readTrajectoryMessages(stored)).toEqual({ ok: true, value: stored });
  });

  it("converts a bare array of OpenAI wire messages into the same type", () => {
    const wire = [
      { role: "system", content: "s" },
      { role: "user", content: "task" },
      {
        role: "assistant",
        content: null,
        reasoning_content: "think",
        tool_calls: [
          { type: "function", function: { name: "add", arguments: { amount: 3 } } },
          { id: "x", function: { name: "get", arguments: "{}" } },
        ],
      },
      { role: "tool", content: { success: true } },
      { role: "tool", tool_call_id: "x", content: "ok" },
      { role: "assistant", content: "done" },
    ];
    const read = readTrajectoryMessages(wire);
    expect(read).toEqual({
      ok: true,
      value: {
        agent: [
          { role: "system", content: "s" },
          { role: "user", content: "task" },
          {
            role: "assistant",
            content: null,
            reasoning: "think",
            toolCalls: [
              { id: "call_1", name: "add", arguments: '{"amount":3}' },
              { id: "x", name: "get", arguments: "{}" },
            ],
          },
          { role: "tool", toolCallId: "call_1", content: '{"success":true}' },
          { role: "tool", toolCallId: "x", content: "ok" },
          { role: "assistant", content: "done" },
        ],
        user: [],
        endReason: null,
        finalText: null,
        score: null,
      },
    });
  });

  it("names what is wrong instead of returning no messages", () => {
    const wrongObject = readTrajectoryMessages({ agent: [{ role: "assistant", tool_calls: [] }] });
    expect(wrongObject.ok).toBe(false);
    expect(!wrongObject.ok && wrongObject.error).toMatch(
      /^stored messages do not match the rollout shape: agent\.0\.content/,
    );
    const wrongArray = readTrajectoryMessages([{ role: "robot", content: "x" }]);
    expect(!wrongArray.ok && wrongArray.error).toMatch(/neither the rollout shape nor OpenAI chat messages/);
    expect(readTrajectoryMessages(null).ok).toBe(false);
  });
});
