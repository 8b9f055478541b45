/**
 * OpenEnv and TRL contracts of the OPENENV_PACKAGE export, run in python3 against the
 * re-implementations in lib/export/testing/upstream (openenv_harness.py from meta-pytorch/OpenEnv
 * 685de411; trl_harness.py from huggingface/trl f2cd57710 and transformers' chat_template_utils.py).
 *
 * The MCP entry (server/mcp_app.py) runs under openenv_mcp_harness.py, written from
 * huggingface/OpenEnv src/openenv/core/env_server/http_server.py @ 434bb1dcf892119b1d7344c7fc1c1459a7da390a
 * (mcp_handler: for an env with neither mcp_client nor mcp_server whose action_cls is CallToolAction
 * or ListToolsAction, tools/list steps ListToolsAction() and returns `[tool.model_dump() for tool in
 * obs.tools]`, tools/call steps CallToolAction(tool_name=name, arguments=args) and returns the
 * serialized CallToolObservation; POST /mcp always answers HTTP 200; /ws `?session_id=` attach),
 * serialization.py @ ac39801e59dba134bff8da759fd38d9c66347192 (deserialize_action: `{"type":
 * "call_tool"|"list_tools"}` step data become MCP actions when action_cls is one) and mcp_types.py @
 * 385de5ebb8d08d51d000d7dfc19de5f3c6a9c215 (Tool with snake_case input_schema, ToolError{error_type,
 * message}, ToolErrorType values), the latter in openenv_harness.py.
 */
import { readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { CLINIC_GOLD, CLINIC_TASK, CLINIC_TOOLS, clinicInput } from "../testing/clinic-fixture";
import { exportFixture, runHarness } from "../testing/run-python";
import { discoveryPrefix } from "./openenv-package";

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));
const PKG = "clinic_scheduling";

async function exportOpenEnv() {
  const dir = await exportFixture("OPENENV_PACKAGE", clinicInput());
  dirs.push(dir);
  return dir;
}

type OpenEnvOutcome = {
  issues: string[];
  discovery: Record<string, string>;
  is_env_client: boolean;
  observation_class: string;
  task: string;
  reward: number;
  step_count: number;
};

describe("OpenEnv package (openenv validate, AutoEnv discovery, WebSocket session)", () => {
  it("passes every static validation check except the uv.lock that `uv lock` writes", async () => {
    const out = runHarness<OpenEnvOutcome>("openenv_harness.py", [await exportOpenEnv(), PKG], {
      scenario_id: "clinic-01",
      calls: [],
    });
    // Regression: no [project.scripts] server entry point.
    expect(out.issues).toEqual(["Missing uv.lock - run 'uv lock' to generate it"]);
  });

  it("is discovered as openenv-<pkg> with <Prefix>Env(EnvClient), <Prefix>Action and <Prefix>Observation in client.py", async () => {
    const dir = await exportOpenEnv();
    const out = runHarness<OpenEnvOutcome>("openenv_harness.py", [dir, PKG], {
      scenario_id: "clinic-01",
      calls: [],
    });
    expect(out.discovery).toEqual({
      module: PKG,
      client_module: `${PKG}.client`,
      client: "ClinicSchedulingEnv",
      action: "ClinicSchedulingAction",
      observation: "ClinicSchedulingObservation",
    });
    expect(out.is_env_client).toBe(true);
    expect(out.observation_class).toBe("ClinicSchedulingObservation");
    expect(readFileSync(path.join(dir, PKG, "pyproject.toml"), "utf8")).toMatch(
      /name = "openenv-clinic_scheduling"[\s\S]*server = "clinic_scheduling.server.app:main"[\s\S]*"openenv.yaml"/,
    );
  });

  it("scores the gold trajectory 1 in one session, and a session without the work below 1", async () => {
    const dir = await exportOpenEnv();
    const gold = runHarness<OpenEnvOutcome>("openenv_harness.py", [dir, PKG], {
      scenario_id: "clinic-01",
      calls: CLINIC_GOLD,
    });
    expect(gold).toMatchObject({ task: CLINIC_TASK, reward: 1, step_count: 3 });
    expect(
      runHarness<OpenEnvOutcome>("openenv_harness.py", [dir, PKG], {
        scenario_id: "clinic-01",
        calls: CLINIC_GOLD.slice(1),
      }).reward,
    ).toBe(0);
  });

  it("derives class names the way discovery does", () => {
    expect(discoveryPrefix("counter")).toBe("Counter");
    expect(discoveryPrefix("my_env")).toBe("My");
    expect(discoveryPrefix("env_01_shop")).toBe("Env01Shop");
  });
});

type TrlOutcome = {
  tools: {
    function: { name: string; parameters: { properties: Record<string, unknown>; required?: string[] } };
  }[];
  prompt: { role: string; content: string }[];
  reward: number;
};

describe("TRL environment_factory (trl_env.py)", () => {
  async function run(calls: unknown[], previous?: unknown[]) {
    const dir = await exportOpenEnv();
    const [row] = readFileSync(path.join(dir, PKG, "trl_dataset.jsonl"), "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    return runHarness<TrlOutcome>("trl_harness.py", [path.join(dir, PKG), "ClinicTrlEnv"], {
      example: row,
      calls,
      ...(previous ? { previous } : {}),
    });
  }

  it("shows the task once: the dataset prompt holds it and reset() adds nothing", async () => {
    const out = await run([]);
    const users = out.prompt.filter((m) => m.role === "user");
    // Regression: reset() returned the task and TRL appended it to the prompt (task+task).
    expect(users.map((m) => m.content)).toEqual([CLINIC_TASK]);
  });

  it("renders faithful tool JSON through transformers' get_json_schema (list[str], Literal, optional)", async () => {
    const out = await run([]);
    const byName = Object.fromEntries(out.tools.map((t) => [t.function.name, t.function.parameters]));
    expect(Object.keys(byName).sort()).toEqual(["book_appointment", "update_insurance"]);
    expect(byName.book_appointment).toEqual({
      type: "object",
      required: ["patient_id", "slot"],
      properties: {
        patient_id: { type: "string", description: "The patient." },
        slot: { type: "string", enum: ["am", "pm"], description: "Half day." },
        // Regression: a bare `list` annotation renders as {"type": "object"}.
        tags: { type: "array", items: { type: "string" }, description: "Labels for the visit." },
      },
    });
    // A nullable parameter (["string", "null"]) renders nullable and, being optional, not required.
    expect(byName.update_insurance?.required).toEqual(["patient_id", "provider"]);
    expect(byName.update_insurance?.properties.plan).toEqual({
      type: "string",
      nullable: true,
      description: "Plan name, if any.",
    });
  });

  it("scores the gold calls 1 with get_reward() on the rollout's instance", async () => {
    expect((await run(CLINIC_GOLD)).reward).toBe(1);
    expect((await run([])).reward).toBe(0);
  });

  it("reset() starts a pooled instance afresh: a previous rollout's work does not count", async () => {
    expect((await run([], CLINIC_GOLD)).reward).toBe(0);
  });
});

type McpRequest =
  { post_mcp: unknown } | { ws: Record<string, unknown>; socket?: string; session_id?: string };
type JsonRpc = { jsonrpc: "2.0"; id: unknown; result?: unknown; error?: { code: number; message: string } };
type CallTool = {
  tool_name: string;
  result: unknown;
  error: { error_type: string; message: string } | null;
  reward: number | null;
  done: boolean;
};
type WsFrame = { type: string; data: Record<string, unknown> };
type McpOutcome = {
  app: Record<string, unknown>;
  responses: (JsonRpc & WsFrame)[];
};

describe("OpenEnv MCP entry (server/mcp_app.py under OpenEnv's own server)", () => {
  const rpc = (id: number, method: string, params?: Record<string, unknown>) => ({
    jsonrpc: "2.0",
    id,
    method,
    ...(params ? { params } : {}),
  });
  const call = (id: number, name: string, args: Record<string, unknown> = {}) => ({
    post_mcp: rpc(id, "tools/call", { name, arguments: args, session_id: "$session" }),
  });
  /** A session made over POST /mcp, reset over /ws attached to it (what MCPToolClient does). */
  const session = (scenario_id = "clinic-01"): McpRequest[] => [
    { post_mcp: rpc(1, "openenv/session/create") },
    { ws: { type: "reset", data: { scenario_id } }, socket: "attached", session_id: "$session" },
  ];
  const gold = CLINIC_GOLD.map((c, i) => call(10 + i, c.name, c.arguments));
  const run = async (requests: McpRequest[], layout: "package" | "folder" = "package") =>
    runHarness<McpOutcome>("openenv_mcp_harness.py", [await exportOpenEnv(), PKG], { layout, requests });
  const result = (r: JsonRpc) => {
    expect(r.error, JSON.stringify(r.error)).toBeUndefined();
    return r.result as CallTool;
  };

  const EXPECTED_TOOLS = [
    ...CLINIC_TOOLS.map((t) => ({
      name: t.function.name,
      description: t.function.description,
      input_schema: t.function.parameters,
    })),
    {
      name: "submit",
      description: "End the episode and score the checklist.",
      input_schema: { type: "object", properties: {}, required: [] },
    },
  ];

  it("is create_app(<Prefix>McpEnvironment, CallToolAction, CallToolObservation) with upstream's own classes, run by `mcp-server`", async () => {
    const dir = await exportOpenEnv();
    const out = await run([]);
    // The fallback is enabled by class identity, and only for an env without mcp_client/mcp_server.
    expect(out.app).toEqual({
      env: "ClinicSchedulingMcpEnvironment",
      action_is_upstream_call_tool_action: true,
      observation_is_upstream_call_tool_observation: true,
      env_name: PKG,
      mcp_attributes: [],
      supports_concurrent_sessions: true,
      main_is_callable: true,
    });
    expect(readFileSync(path.join(dir, PKG, "pyproject.toml"), "utf8")).toContain(
      `mcp-server = "${PKG}.server.mcp_app:main"`,
    );
    expect(readFileSync(path.join(dir, PKG, "README.md"), "utf8")).toContain("uvicorn server.mcp_app:app");
  });

  it("(a) tools/list gives every tool of tools.json and submit, input_schema = the tool's parameters, without a reset", async () => {
    for (const layout of ["package", "folder"] as const) {
      // POST /mcp without a session (a fresh environment), and a step on a /ws that was never reset.
      const out = await run(
        [{ post_mcp: rpc(1, "tools/list") }, { ws: { type: "step", data: { type: "list_tools" } } }],
        layout,
      );
      const [http, ws] = out.responses;
      expect(http).toEqual({ jsonrpc: "2.0", id: 1, result: { tools: EXPECTED_TOOLS } });
      expect(ws?.type).toBe("observation");
      expect(ws?.data.observation).toEqual({ tools: EXPECTED_TOOLS });
    }
    const tools = JSON.parse(
      readFileSync(path.join(await exportOpenEnv(), PKG, "tools.json"), "utf8"),
    ) as typeof CLINIC_TOOLS;
    expect(EXPECTED_TOOLS.slice(0, -1).map((t) => t.input_schema)).toEqual(
      tools.map((t) => t.function.parameters),
    );
  });

  it("(b) the gold calls via tools/call, then submit, give reward 1.0 and done", async () => {
    const out = await run([
      ...session(),
      ...gold,
      call(20, "submit"),
      { ws: { type: "state" }, socket: "attached" },
    ]);
    const [created, reset, ...rest] = out.responses;
    expect((created?.result as { session_id: string }).session_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(reset?.data).toEqual({
      observation: { task: CLINIC_TASK, scenario_id: "clinic-01" },
      reward: null,
      done: false,
    });
    const calls = rest.slice(0, 3).map(result);
    expect(calls.map((c) => [c.tool_name, c.error, c.reward, c.done])).toEqual([
      ["update_insurance", null, null, false],
      ["book_appointment", null, null, false],
      ["submit", null, 1, true],
    ]);
    expect(calls[1]?.result).toEqual({ success: true, data: 1 });
    expect(rest[3]?.data).toMatchObject({ scenario_id: "clinic-01", step_count: 3 });

    // The same episode on one /ws, as servers without `?session_id=` attach play it: step frames and mcp frames.
    const ws = await run([
      { ws: { type: "reset", data: { scenario_id: "clinic-01" } } },
      {
        ws: {
          type: "step",
          data: { type: "call_tool", tool_name: "update_insurance", arguments: CLINIC_GOLD[0]?.arguments },
        },
      },
      {
        ws: {
          type: "mcp",
          data: rpc(2, "tools/call", { name: "book_appointment", arguments: CLINIC_GOLD[1]?.arguments }),
        },
      },
      { ws: { type: "step", data: { type: "call_tool", tool_name: "submit", arguments: {} } } },
    ]);
    expect(ws.responses[1]?.data).toMatchObject({
      observation: { tool_name: "update_insurance", error: null },
      done: false,
    });
    expect((ws.responses[2]?.data as unknown as JsonRpc).result).toMatchObject({
      tool_name: "book_appointment",
      error: null,
    });
    expect(ws.responses[3]?.data).toMatchObject({
      observation: { tool_name: "submit", error: null },
      reward: 1,
      done: true,
    });
  });

  it("(c) an unknown tool, a tool that raises and arguments that do not fit give a ToolError, and the episode goes on", async () => {
    const out = await run([
      ...session(),
      call(3, "cancel_everything", { patient_id: "p1" }),
      call(4, "update_insurance", {}),
      gold[0] as McpRequest,
      // book_appointment runs list(tags): an int raises TypeError inside the tool.
      call(5, "book_appointment", { patient_id: "p1", slot: "pm", tags: 5 }),
      call(6, "reset"),
      call(7, "__init__"),
      { post_mcp: rpc(8, "tools/call", { arguments: {}, session_id: "$session" }) },
      gold[1] as McpRequest,
      call(20, "submit"),
    ]);
    const [unknown, invalid, , raised, reserved, privateName, noName, booked, submit] =
      out.responses.slice(2);
    const error = (r: JsonRpc | undefined) => {
      const c = result(r as JsonRpc);
      expect(c).toMatchObject({ result: null, reward: null, done: false });
      return [c.tool_name, c.error?.error_type, c.error?.message];
    };
    expect(error(unknown)).toEqual([
      "cancel_everything",
      "tool_not_found",
      "Unknown tool 'cancel_everything'",
    ]);
    expect(error(invalid)).toEqual([
      "update_insurance",
      "invalid_args",
      "missing a required argument: 'patient_id'",
    ]);
    expect(error(raised)).toEqual([
      "book_appointment",
      "execution_error",
      "TypeError: 'int' object is not iterable",
    ]);
    // Names that are not tools: the server's own methods and private methods of the class.
    expect(error(reserved)).toEqual(["reset", "tool_not_found", "Unknown tool 'reset'"]);
    expect(error(privateName)).toEqual(["__init__", "tool_not_found", "Unknown tool '__init__'"]);
    // A call without a name is refused by the server itself, as a JSON-RPC error (still HTTP 200).
    expect(noName).toEqual({
      jsonrpc: "2.0",
      id: 8,
      error: { code: -32602, message: "Missing 'name' in params", data: null },
    });
    expect(result(booked as JsonRpc)).toMatchObject({ result: { success: true, data: 1 }, error: null });
    expect(result(submit as JsonRpc)).toMatchObject({ reward: 1, done: true, error: null });
  });

  it("(d) a call after the episode ended, or before any reset, is refused", async () => {
    const out = await run([
      ...session(),
      ...gold,
      call(20, "submit"),
      call(21, "update_insurance", { patient_id: "p1", provider: "Other" }),
      call(22, "submit"),
      {
        ws: { type: "step", data: { type: "call_tool", tool_name: "submit", arguments: {} } },
        socket: "attached",
      },
      { ws: { type: "state" }, socket: "attached" },
      // No session: a fresh environment per request, never reset.
      {
        post_mcp: rpc(23, "tools/call", {
          name: "update_insurance",
          arguments: { patient_id: "p1", provider: "Acme" },
        }),
      },
    ]);
    const ended = "The episode has ended: call reset to start another";
    const [after, again, wsAfter, state, fresh] = out.responses.slice(5);
    for (const r of [after, again])
      expect(result(r as JsonRpc)).toMatchObject({
        result: null,
        reward: null,
        done: true,
        error: { error_type: "execution_error", message: ended },
      });
    expect(wsAfter?.data).toMatchObject({
      observation: { result: null, error: { error_type: "execution_error", message: ended } },
      reward: null,
      done: true,
    });
    // The refused calls changed nothing and were not counted.
    expect(state?.data).toMatchObject({ step_count: 3 });
    expect((state?.data.snapshot as { patients: unknown }).patients).toEqual({
      p1: { name: "Ada", insurance: { provider: "Acme", plan: null } },
    });
    expect(result(fresh as JsonRpc)).toMatchObject({
      done: false,
      error: { error_type: "execution_error", message: "No episode: call reset first" },
    });
  });
});
