/**
 * `envstudio_versions.json`, written beside the rows of the formats whose rows have no place for
 * provenance (OpenAI chat JSONL, LLaMA-Factory): the dataset version, the environment version each
 * environment is pinned to, and each scenario's validator versions — the versions that were
 * reviewed and proven, as numbers. Trainers ignore the extra file.
 */
import { type ExportInput, type ExportScenario, nearMissEntry } from "./export.schema";
import { type Sink, writeWhole } from "./sink";

export const PINS_FILE = "envstudio_versions.json";

export function createPinsManifest(input: ExportInput) {
  const scenarios: {
    env_id: string;
    task_id: string;
    split: string;
    validator_versions: number[];
    near_miss_strength?: unknown;
  }[] = [];
  return {
    add(scenario: ExportScenario) {
      scenarios.push({
        env_id: scenario.envId,
        task_id: scenario.taskId,
        split: scenario.split.toLowerCase(),
        validator_versions: scenario.checks.map((check) => check.validatorVersion),
        ...nearMissEntry(scenario),
      });
    },
    write(sink: Sink): Promise<number> {
      const manifest = {
        dataset: { name: input.dataset.name, version: input.dataset.version },
        environments: input.environments.map((e) => ({ env_id: e.envId, version: e.version })),
        scenarios,
      };
      return writeWhole(sink, PINS_FILE, JSON.stringify(manifest, null, 2) + "\n");
    },
  };
}
