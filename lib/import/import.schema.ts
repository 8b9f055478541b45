/** Shapes accepted on import: EnvScaler's released files (§8) and EnvStudio's own extensions. */
import { z } from "zod";

const PY_IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

export const ImportEnvItemSchema = z.object({
  env_id: z.string().trim().min(1),
  environment_summary: z.string().default(""),
  environment_introduction: z.string().default(""),
  state_space_definition: z.unknown().default([]),
  constraints_rules: z.unknown().default([]),
  operation_list: z.unknown().default([]),
  env_class_name: z.string().regex(PY_IDENTIFIER, "must be a Python identifier"),
  env_class_code: z.string().min(1, "is empty"),
  env_structure: z.unknown().optional(),
  /** The file's own tool schemas: compared with the analysis of the code, never used (import-tools.ts). */
  tools: z.array(z.record(z.string(), z.unknown())).optional(),
  /** EnvStudio's own export extras. Informational only: nothing a file says about itself (a hash, a
   * version) grants review status or proof — imports are reviewed and proven here. */
  envstudio: z
    .object({
      domain: z.string(),
      version: z.number().int().min(1),
      source_hash: z.string(),
      metadata: z.record(z.string(), z.unknown()),
    })
    .partial()
    .optional(),
});
export type ImportEnvItem = z.infer<typeof ImportEnvItemSchema>;

export const ImportCheckSchema = z.object({ check_item: z.string().min(1), check_func: z.string().min(1) });

export const ImportScenarioSchema = z.object({
  /** Optional only in a Python environment folder, where every scenario belongs to its one class. */
  env_id: z.string().trim().default(""),
  env_class_name: z.string().optional(),
  task_id: z.union([z.string().min(1), z.number()]).transform(String),
  init_config: z.record(z.string(), z.unknown()),
  task: z.string().min(1, "is empty"),
  checklist: z.array(z.string()).optional(),
  checklist_with_func: z.array(ImportCheckSchema).default([]),
  gold_calls: z.unknown().optional(),
  split: z.enum(["train", "test"]).optional(),
  envstudio: z
    .object({ validator_versions: z.array(z.number().int().min(1)) })
    .partial()
    .optional(),
});
export type ImportScenario = z.infer<typeof ImportScenarioSchema>;

/** Where an import problem is: the file, and as much of record / line / field as is known. */
export const ImportLocationSchema = z.object({
  file: z.string(),
  line: z.number().optional(),
  record: z.string().optional(),
  field: z.string().optional(),
});
export type ImportLocation = z.infer<typeof ImportLocationSchema>;
export const ImportErrorSchema = ImportLocationSchema.extend({
  message: z.string(),
  /** the env_id already exists: re-import as new slug or new version */ existing: z.boolean().optional(),
});
export type ImportError = z.infer<typeof ImportErrorSchema>;

/** Something the import did differently from what a file said, and did not refuse: shown, not written. */
export const ImportWarningSchema = ImportLocationSchema.extend({ message: z.string() });
export type ImportWarning = z.infer<typeof ImportWarningSchema>;

/** What to do when an imported env_id already exists in the project. */
export const ON_EXISTING = ["refuse", "rename", "new-version"] as const;
export type OnExisting = (typeof ON_EXISTING)[number];
/** One environment the import wrote: a new one (maybe under a new slug) or a new version of one. */
export const ImportedEnvironmentSchema = z.object({
  slug: z.string(),
  id: z.string(),
  version: z.number(),
  asNewVersion: z.boolean(),
});
export type ImportedEnvironment = z.infer<typeof ImportedEnvironmentSchema>;

/** `file:line, record r, field f: message`, for errors and warnings alike. */
export const formatImportError = (e: ImportLocation & { message: string }) =>
  [
    e.file + (e.line ? `:${e.line}` : ""),
    e.record !== undefined ? `record ${e.record}` : "",
    e.field ? `field ${e.field}` : "",
  ]
    .filter(Boolean)
    .join(", ") + `: ${e.message}`;

/** What gets written, all or nothing; `warnings` are reported to the importer and not written. */
export type ImportPlan = {
  warnings: ImportWarning[];
  environments: {
    slug: string;
    name: string;
    description: string;
    domain: string;
    className: string;
    source: string;
    version: number;
    /** From the analysis of `source`, never from the file. */
    tools: unknown[];
    stateSchema: unknown;
    rules: unknown;
    operations: unknown;
    metadata: Record<string, unknown>;
  }[];
  scenarios: {
    envSlug: string;
    externalId: string;
    initialState: Record<string, unknown>;
    task: string;
    checklist: string[];
    checks: { checkItem: string; code: string; version: number }[];
    goldCalls: unknown;
  }[];
};
