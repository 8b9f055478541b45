/** The README.md dataset card: YAML header (configs, features, splits) + schema, stats, provenance. */
import { yamlString } from "../config-source";
import { DIFFICULTY_FLOAT_FIELDS, DIFFICULTY_INT_FIELDS } from "../difficulty";
import type { ExportInput } from "../export.schema";

const SCENARIO_FEATURES = `  - config_name: default
    features:
      - name: env_id
        dtype: string
      - name: task_id
        dtype: string
      - name: env_class_name
        dtype: string
      - name: prompt
        list:
          - name: role
            dtype: string
          - name: content
            dtype: string
      - name: task
        dtype: string
      - name: init_config
        dtype: string
      - name: checklist
        sequence: string
      - name: checklist_with_func
        list:
          - name: check_item
            dtype: string
          - name: check_func
            dtype: string
      - name: split
        dtype: string`;

const figureFeatures = (indent: string) =>
  [
    ...DIFFICULTY_INT_FIELDS.map((n) => [n, "int64"] as const),
    ...DIFFICULTY_FLOAT_FIELDS.map((n) => [n, "float64"] as const),
  ]
    .map(([name, dtype]) => `${indent}- name: ${name}\n${indent}  dtype: ${dtype}`)
    .join("\n");

/** Declared only for versions that froze difficulty (lib/export/difficulty.ts). */
const DIFFICULTY_FEATURES = `      - name: difficulty
        struct:
${figureFeatures("          ")}
          - name: per_model
            list:
              - name: model
                dtype: string
${figureFeatures("              ")}`;

const NEAR_MISS_NOTE = ` \`near_miss_strength\` (JSON) says how many near-misses of the gold
solution (a skipped change, a changed argument, an early stop) the checks reject, of how many, and the ones they
accept; null when not measured.`;

const NEAR_MISS_FEATURE = `
      - name: near_miss_strength
        dtype: string`;

const ENV_FEATURES = [
  "env_id",
  "environment_summary",
  "environment_introduction",
  "domain",
  "env_class_name",
  "env_class_code",
  "source_hash",
  "tools",
  "constraints_rules",
  "state_space_definition",
]
  .map((name) => `      - name: ${name}\n        dtype: string`)
  .concat(["      - name: version\n        dtype: int64"])
  .join("\n");

export function datasetCard(
  input: ExportInput,
  counts: { train: number; test: number; environments: number },
): string {
  const d = input.dataset;
  const header = [
    "---",
    `pretty_name: ${yamlString(d.name)}`,
    "task_categories:\n  - text-generation",
    "tags:\n  - tool-use\n  - agents\n  - reinforcement-learning\n  - envscaler",
    "configs:",
    "  - config_name: default\n    data_files:\n      - split: train\n        path: data/train.jsonl\n      - split: test\n        path: data/test.jsonl",
    "  - config_name: environments\n    data_files:\n      - split: train\n        path: data/environments.jsonl",
    "dataset_info:",
    `${SCENARIO_FEATURES}${input.withDifficulty ? `\n${DIFFICULTY_FEATURES}` : ""}${d.hasNearMissStrength ? NEAR_MISS_FEATURE : ""}\n    splits:\n      - name: train\n        num_examples: ${counts.train}\n      - name: test\n        num_examples: ${counts.test}`,
    `  - config_name: environments\n    features:\n${ENV_FEATURES}\n    splits:\n      - name: train\n        num_examples: ${counts.environments}`,
    "---",
  ].join("\n");
  const envList = input.environments
    .map(
      (e) =>
        `| \`${e.envId}\` | ${e.name.replace(/\|/g, "\\|")} | ${e.domain} | ${e.version} | \`${e.sourceHash.slice(0, 12)}\` | ${e.tools.length} |`,
    )
    .join("\n");
  return `${header}

# ${d.name} (version ${d.version})

${d.description || "Tool-interactive training environments and scenarios curated in EnvStudio (EnvScaler method)."}

Each scenario row is a task in a stateful Python environment: \`init_config\` (JSON) is the initial state, \`prompt\` the
agent's system and user messages, and \`checklist_with_func\` the rule-based validators — \`check_func(final_state)\`
returns a bool; the reward is the fraction that pass. The \`environments\` config holds each environment's class code
(\`env_class_code\`) and OpenAI tool schemas (\`tools\`, JSON).${d.hasNearMissStrength ? NEAR_MISS_NOTE : ""}

## Splits

Split **by environment** (no environment appears on both sides), seed ${d.seed}, target test ratio ${d.testRatio}.

| split | scenarios |
| --- | --- |
| train | ${counts.train} |
| test | ${counts.test} |

## Statistics

\`\`\`json
${JSON.stringify(d.stats, null, 2)}
\`\`\`

## Provenance

Exported from EnvStudio dataset \`${d.name}\` version ${d.version} (created ${d.createdAt}). Every scenario was accepted
by a reviewer and its validators verified; environment and validator versions are pinned:

| env_id | name | domain | version | source sha256 | tools |
| --- | --- | --- | --- | --- | --- |
${envList}
`;
}
