import "server-only";
/**
 * Everything a proof or a rollout needs about one scenario, read once: the environment's current
 * code version (proofs and rollouts pin the version they ran with), the current validator versions
 * in checklist order, and the stored gold calls.
 */
import type { Db } from "@/lib/db";
import { type JsonObject, JsonObjectSchema, ToolSchema } from "@/lib/sandbox";
import { z } from "zod";
import { type GoldCall, GoldCallsSchema, type ProofCheck } from "../scenario.schema";

export type ScenarioSubject = {
  scenarioId: string;
  projectId: string;
  environmentId: string;
  environmentVersionId: string;
  source: string;
  className: string;
  introduction: string;
  rules: string[];
  tools: z.infer<typeof ToolSchema>[];
  task: string;
  initialState: JsonObject;
  checks: (ProofCheck & { validatorId: string; validatorVersionId: string })[];
  storedGold: GoldCall[] | null;
};

export async function loadScenarioSubject(db: Db, scenarioId: string): Promise<ScenarioSubject | null> {
  const scenario = await db.scenario.findUnique({
    where: { id: scenarioId },
    include: {
      environment: { include: { currentVersion: true } },
      validators: { orderBy: { position: "asc" }, include: { currentVersion: true } },
    },
  });
  const version = scenario?.environment.currentVersion;
  if (!scenario || !version) return null;
  const checks = scenario.validators.flatMap((v) =>
    v.currentVersion
      ? [
          {
            position: v.position,
            item: v.checkItem,
            code: v.currentVersion.code,
            validatorId: v.id,
            validatorVersionId: v.currentVersion.id,
          },
        ]
      : [],
  );
  const gold = GoldCallsSchema.safeParse(scenario.goldCalls);
  return {
    scenarioId: scenario.id,
    projectId: scenario.environment.projectId,
    environmentId: scenario.environmentId,
    environmentVersionId: version.id,
    source: version.source,
    className: version.className,
    introduction: scenario.environment.description || scenario.environment.name,
    rules: z.array(z.string()).catch([]).parse(version.rules),
    tools: z.array(ToolSchema).catch([]).parse(version.tools),
    task: scenario.task,
    initialState: JsonObjectSchema.catch({}).parse(scenario.initialState),
    checks,
    storedGold: gold.success && gold.data.length > 0 ? gold.data : null,
  };
}
