/**
 * TEST AND DEMO ONLY. Cuts a hand-written sample environment (prisma/seed/samples) into the pieces the
 * pipeline asks an LLM for: the state class (everything but the chosen public methods), one
 * method per operation, a test state and gold tool calls. Scripted replies are built from these.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const SAMPLES = fileURLToPath(new URL("../../prisma/seed/samples", import.meta.url));

export type SampleOperation = {
  operation_name: string;
  operation_description: string;
  operation_type: "query" | "state_change";
};
export type SampleEnv = {
  slug: string;
  summary: string;
  domain: string;
  introduction: string;
  className: string;
  entities: { entity: string; attributes: string[]; description: string }[];
  rules: string[];
  operations: SampleOperation[];
  stateCode: string;
  methods: Record<string, string>;
  initialState: Record<string, unknown>;
  goldCalls: { name: string; arguments: Record<string, unknown> }[];
};

type Meta = {
  environment_summary: string;
  domain: string;
  environment_introduction: string;
  env_class_name: string;
  state_space_definition: { entity: string; attributes: string; description: string }[];
  constraints_rules: string[];
  operation_list: SampleOperation[];
};
type Scenario = {
  init_config: Record<string, unknown>;
  gold_calls: { name: string; arguments: Record<string, unknown> }[];
};

/** Method blocks of the class at 4-space indentation: name → [start, end) line indices. */
function methodSpans(lines: string[]): Map<string, [number, number]> {
  const spans = new Map<string, [number, number]>();
  const starts = lines.flatMap((l, i) => (/^ {4}def \w+\(/.test(l) ? [i] : []));
  starts.forEach((start, k) => {
    const name = /def (\w+)\(/.exec(lines[start] ?? "")?.[1] ?? "";
    let end = starts[k + 1] ?? lines.length;
    // Stop early at a top-level line after the class (module code following it).
    for (let i = start + 1; i < end; i += 1)
      if (/^\S/.test(lines[i] ?? "")) {
        end = i;
        break;
      }
    spans.set(name, [start, end]);
  });
  return spans;
}

export function loadSampleEnv(slug: string, opts: { operations?: string[] } = {}): SampleEnv {
  const dir = path.join(SAMPLES, slug);
  const meta = JSON.parse(readFileSync(path.join(dir, "meta.json"), "utf8")) as Meta;
  const scenarios = JSON.parse(readFileSync(path.join(dir, "scenarios.json"), "utf8")) as Scenario[];
  const source = readFileSync(path.join(dir, "environment.py"), "utf8");
  const lines = source.split("\n");
  const spans = methodSpans(lines);
  const operations = meta.operation_list.filter(
    (o) => !opts.operations || opts.operations.includes(o.operation_name),
  );
  const chosen = new Set(operations.map((o) => o.operation_name));
  const methods: Record<string, string> = {};
  const drop = new Set<number>();
  for (const name of chosen) {
    const span = spans.get(name);
    if (!span) throw new Error(`${slug}: no method ${name}`);
    methods[name] =
      lines
        .slice(span[0], span[1])
        .map((l) => l.slice(4))
        .join("\n")
        .trimEnd() + "\n";
    for (let i = span[0]; i < span[1]; i += 1) drop.add(i);
  }
  const scenario = scenarios[0]!;
  return {
    slug,
    summary: meta.environment_summary,
    domain: meta.domain,
    introduction: meta.environment_introduction,
    className: meta.env_class_name,
    entities: meta.state_space_definition.map((e) => ({
      entity: e.entity,
      attributes: e.attributes.split(",").map((a) => a.trim()),
      description: e.description,
    })),
    rules: meta.constraints_rules,
    operations,
    stateCode: lines.filter((_, i) => !drop.has(i)).join("\n"),
    methods,
    initialState: scenario.init_config,
    goldCalls: scenarios.flatMap((s) => s.gold_calls).filter((c) => chosen.has(c.name)),
  };
}
