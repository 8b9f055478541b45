/**
 * OpenEnv and TRL contracts of the OPENENV_PACKAGE export, run in python3 against the
 * re-implementations in lib/export/testing/upstream (openenv_harness.py from meta-pytorch/OpenEnv
 * 685de411; trl_harness.py from huggingface/trl f2cd57710 and transformers' chat_template_utils.py).
 */
import { readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { CLINIC_GOLD, CLINIC_TASK, clinicInput } from "../testing/clinic-fixture";
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
