/**
 * Reads the hand-written sample environments in prisma/seed/samples/<slug>/ and validates them.
 *
 * Each folder holds `environment.py` (EnvScaler-style Python module), `meta.json` (EnvScaler env
 * metadata minus the derived fields: code, tools, env_structure) and `scenarios.json` (EnvScaler RL
 * scenarios plus our `gold_calls` reference solution). Pure: node:fs + zod, no database, no Python.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { z } from "zod";
import { formatZodIssues } from "../../lib/core/zod-issues";

export const DEFAULT_SAMPLES_DIR = fileURLToPath(new URL("./samples", import.meta.url));

const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const PY_IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;
/** EnvScaler tasks are multi-step instructions of at least ~50 words (spec §5.2). */
const MIN_TASK_WORDS = 50;

const nonEmpty = z.string().trim().min(1);

export const StateEntitySchema = z.object({
  entity: nonEmpty,
  /** Comma-separated attribute names, as EnvScaler stores them. */
  attributes: nonEmpty,
  description: nonEmpty,
});

export const OperationSchema = z.object({
  operation_name: z.string().regex(PY_IDENTIFIER, "must be a Python identifier"),
  operation_description: nonEmpty,
  operation_type: z.enum(["query", "state_change"]),
});

export const SampleMetaSchema = z
  .object({
    env_id: nonEmpty,
    environment_summary: nonEmpty,
    environment_introduction: nonEmpty,
    domain: nonEmpty,
    state_space_definition: z.array(StateEntitySchema).min(1),
    constraints_rules: z.array(nonEmpty).min(1),
    operation_list: z.array(OperationSchema).min(1),
    env_class_name: z.string().regex(PY_IDENTIFIER, "must be a Python identifier"),
  })
  .superRefine((meta, ctx) => {
    const seen = new Set<string>();
    meta.operation_list.forEach((op, i) => {
      if (seen.has(op.operation_name)) {
        ctx.addIssue({
          code: "custom",
          path: ["operation_list", i, "operation_name"],
          message: `duplicate operation ${op.operation_name}`,
        });
      }
      seen.add(op.operation_name);
    });
  });
export type SampleMeta = z.infer<typeof SampleMetaSchema>;

export const GoldCallSchema = z.object({
  name: z.string().regex(PY_IDENTIFIER, "must be a Python identifier"),
  arguments: z.record(z.string(), z.unknown()),
});
export type GoldCall = z.infer<typeof GoldCallSchema>;

export const CheckItemSchema = z.object({
  check_item: nonEmpty,
  check_func: z.string().refine((src) => /^def check_func\(final_state\):/m.test(src), {
    message: "must define `def check_func(final_state):`",
  }),
});

export const SampleScenarioSchema = z
  .object({
    task_id: nonEmpty,
    init_config: z.record(z.string(), z.unknown()),
    task: z.string().refine((t) => t.trim().split(/\s+/).length >= MIN_TASK_WORDS, {
      message: `must have at least ${MIN_TASK_WORDS} words`,
    }),
    checklist: z.array(nonEmpty).min(1),
    checklist_with_func: z.array(CheckItemSchema).min(1),
    gold_calls: z.array(GoldCallSchema).min(1),
  })
  .superRefine((s, ctx) => {
    // The checklist is the human-readable view of checklist_with_func; they must line up.
    if (s.checklist.length !== s.checklist_with_func.length) {
      ctx.addIssue({
        code: "custom",
        path: ["checklist"],
        message: "must have one entry per checklist_with_func item",
      });
      return;
    }
    s.checklist.forEach((item, i) => {
      if (item !== s.checklist_with_func[i]?.check_item) {
        ctx.addIssue({
          code: "custom",
          path: ["checklist", i],
          message: "must equal checklist_with_func[i].check_item",
        });
      }
    });
  });
export type SampleScenario = z.infer<typeof SampleScenarioSchema>;

export type Sample = {
  slug: string;
  /** Python source of environment.py. */
  source: string;
  meta: SampleMeta;
  scenarios: SampleScenario[];
};

export class SampleLoadError extends Error {
  constructor(
    readonly file: string,
    message: string,
  ) {
    super(`${file}: ${message}`);
    this.name = "SampleLoadError";
  }
}

function formatIssues(issues: z.ZodError["issues"]): string {
  return formatZodIssues({ issues }, { root: "(root)" });
}

function readText(file: string): string {
  if (!existsSync(file)) throw new SampleLoadError(file, "file is missing");
  return readFileSync(file, "utf8");
}

function parseJsonFile<T>(file: string, schema: z.ZodType<T>): T {
  let raw: unknown;
  try {
    raw = JSON.parse(readText(file));
  } catch (e) {
    if (e instanceof SampleLoadError) throw e;
    throw new SampleLoadError(file, `invalid JSON (${e instanceof Error ? e.message : String(e)})`);
  }
  const parsed = schema.safeParse(raw);
  if (!parsed.success) throw new SampleLoadError(file, formatIssues(parsed.error.issues));
  return parsed.data;
}

export function loadSample(dir: string): Sample {
  const slug = path.basename(dir);
  if (!SLUG.test(slug)) throw new SampleLoadError(dir, "folder name must be a kebab-case slug");

  const sourceFile = path.join(dir, "environment.py");
  const source = readText(sourceFile);
  const meta = parseJsonFile(path.join(dir, "meta.json"), SampleMetaSchema);
  // Cheap cross-file consistency check; the real one (instantiation) happens in Python.
  if (!new RegExp(`^class ${meta.env_class_name}\\b`, "m").test(source)) {
    throw new SampleLoadError(
      sourceFile,
      `env_class_name: class ${meta.env_class_name} (from meta.json) is not defined`,
    );
  }

  const scenariosFile = path.join(dir, "scenarios.json");
  const scenarios = parseJsonFile(scenariosFile, z.array(SampleScenarioSchema).min(1));
  const ids = new Set<string>();
  scenarios.forEach((s, i) => {
    if (ids.has(s.task_id))
      throw new SampleLoadError(scenariosFile, `${i}.task_id: duplicate task_id ${s.task_id}`);
    ids.add(s.task_id);
  });

  return { slug, source, meta, scenarios };
}

/** Loads every sample folder under `dir`, sorted by slug so seeding order is stable. */
export function loadSamples(dir: string = DEFAULT_SAMPLES_DIR): Sample[] {
  if (!existsSync(dir)) throw new SampleLoadError(dir, "samples directory is missing");
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort()
    .map((name) => loadSample(path.join(dir, name)));
}
