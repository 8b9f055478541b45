/**
 * A stateful two-step environment for the trainer contract tests: booking needs the insurance
 * update made by the call before it (state must survive between calls), one parameter is
 * nullable (`["string", "null"]`), one is a list, one an enum. The gold trajectory scores 1.
 */
import type { ChatMessage } from "../../llm/llm.schema";
import type { ExportEnvironment, ExportInput, ExportScenario, OpenAiTool } from "../export.schema";
import { iterate } from "./fixture";

export const CLINIC_SOURCE = `class Clinic:
    def __init__(self, init_config=None):
        self.patients = {}
        self.appointments = []

    def update_insurance(self, patient_id: str, provider: str, plan=None) -> dict:
        """Set a patient's insurance."""
        if patient_id not in self.patients:
            return {"success": False, "error": "unknown patient"}
        self.patients[patient_id]["insurance"] = {"provider": provider, "plan": plan}
        return {"success": True, "data": self.patients[patient_id]}

    def book_appointment(self, patient_id: str, slot: str, tags=None) -> dict:
        """Book an appointment; the patient needs insurance on file."""
        patient = self.patients.get(patient_id)
        if not patient or not patient.get("insurance"):
            return {"success": False, "error": "no insurance on file"}
        self.appointments.append({"patient_id": patient_id, "slot": slot, "tags": list(tags or [])})
        return {"success": True, "data": len(self.appointments)}
`;

const tool = (
  name: string,
  description: string,
  properties: Record<string, unknown>,
  required: string[],
): OpenAiTool => ({
  type: "function",
  function: { name, description, parameters: { type: "object", properties, required } },
});

export const CLINIC_TOOLS: OpenAiTool[] = [
  tool(
    "update_insurance",
    "Set a patient's insurance.",
    {
      patient_id: { type: "string", description: "The patient." },
      provider: { type: "string", description: "Insurance company." },
      plan: { type: ["string", "null"], description: "Plan name, if any." },
    },
    ["patient_id", "provider", "plan"],
  ),
  tool(
    "book_appointment",
    "Book an appointment; the patient needs insurance on file.",
    {
      patient_id: { type: "string", description: "The patient." },
      slot: { type: "string", enum: ["am", "pm"], description: "Half day." },
      tags: { type: "array", items: { type: "string" }, description: "Labels for the visit." },
    },
    ["patient_id", "slot"],
  ),
];

export const CLINIC_ENV: ExportEnvironment = {
  envId: "clinic-scheduling",
  name: "Clinic scheduling",
  description: "Patients, insurance and appointments.",
  domain: "health",
  className: "Clinic",
  source: CLINIC_SOURCE,
  sourceHash: "1".repeat(64),
  version: 1,
  tools: CLINIC_TOOLS,
  stateSchema: [{ entity: "Patient", attributes: "insurance", description: "A patient." }],
  rules: ["Booking needs insurance."],
  operations: [
    { operation_name: "book_appointment", operation_description: "Book.", operation_type: "state_change" },
  ],
  metadata: {},
};

export const CLINIC_TASK =
  "Patient p1 now has Acme insurance; record it, then book them an afternoon appointment tagged new.";

const CHECKS = [
  'def check_func(final_state):\n    return final_state["patients"]["p1"].get("insurance", {}).get("provider") == "Acme"\n',
  'def check_func(final_state):\n    return any(a["patient_id"] == "p1" and a["slot"] == "pm" and "new" in a["tags"] for a in final_state["appointments"])\n',
];

/** The gold calls, in order: the booking only succeeds if the insurance update is still there. */
export const CLINIC_GOLD = [
  { name: "update_insurance", arguments: { patient_id: "p1", provider: "Acme" } },
  { name: "book_appointment", arguments: { patient_id: "p1", slot: "pm", tags: ["new"] } },
];

/** Two calls in one assistant turn (parallel tool calls), then the final answer, as a rollout stores them. */
export const PARALLEL_MESSAGES: ChatMessage[] = [
  { role: "system", content: "You run a clinic." },
  { role: "user", content: CLINIC_TASK },
  {
    role: "assistant",
    content: null,
    toolCalls: [
      { id: "c1", name: "update_insurance", arguments: '{"patient_id":"p1","provider":"Acme"}' },
      { id: "c2", name: "book_appointment", arguments: '{"patient_id":"p1","slot":"pm","tags":["new"]}' },
    ],
  },
  { role: "tool", toolCallId: "c1", content: '{"success": true}' },
  { role: "tool", toolCallId: "c2", content: '{"success": true, "data": 1}' },
  { role: "assistant", content: "Task Completed" },
];

export function clinicScenario(split: "TRAIN" | "TEST" = "TRAIN", taskId = "clinic-01"): ExportScenario {
  return {
    envId: CLINIC_ENV.envId,
    taskId,
    split,
    task: CLINIC_TASK,
    initialState: { patients: { p1: { name: "Ada" } }, appointments: [] },
    checklist: ["Insurance recorded", "Afternoon appointment booked"],
    checks: CHECKS.map((code, i) => ({ checkItem: `check ${i + 1}`, code, validatorVersion: 1 })),
    goldCalls: CLINIC_GOLD,
    trajectories: [
      { id: `t-${taskId}`, model: "m", mode: "non_conversational", reward: 1, messages: PARALLEL_MESSAGES },
    ],
  };
}

export function clinicInput(
  scenarios: ExportScenario[] = [clinicScenario("TRAIN"), clinicScenario("TEST", "clinic-02")],
): ExportInput {
  return {
    dataset: {
      name: "clinic",
      version: 1,
      description: "Trainer contract fixture.",
      seed: 1,
      testRatio: 0.5,
      createdAt: "2026-01-01T00:00:00.000Z",
      stats: {},
    },
    environments: [CLINIC_ENV],
    scenarios: iterate(scenarios),
  };
}
