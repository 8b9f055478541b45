/**
 * ScenGenerator step 1 (spec §5.1): an initial state for the environment. EnvScaler's validation
 * was vacuous (setattr never fails, §12.1 #8); here a state must be a JSON object whose top-level
 * keys are exactly the class's state attributes, and it must load in the sandbox. Problems are
 * shown to the model for a bounded number of re-asks.
 */
import { type Result, err, ok } from "../../core/result";
import { chatParsed, extractJsonObject } from "../../llm";
import { type JsonObject, JsonObjectSchema } from "../../sandbox";
import { type EnvironmentContext, type ScenStageDeps, type ScenStageResult, pretty, scenTag } from "./deps";

const SYSTEM = `${scenTag("scen_state")}
You design realistic initial data for a stateful Python environment. Given its code and state definition, write one initial state: a JSON object whose top-level keys are exactly the environment's state attributes (containers), filled with a varied, internally consistent set of records (references between records must resolve). Include enough records (typically 3–8 per container) for multi-step tasks. Answer with the JSON object only.`;

/** The class's state attributes: the keys of its state when loaded with an empty config. */
export async function stateKeysOf(
  env: EnvironmentContext,
  deps: Pick<ScenStageDeps, "sandbox">,
): Promise<Result<string[], string>> {
  const loaded = await deps.sandbox.load({ source: env.source, className: env.className, initialState: {} });
  if (!loaded.ok) return err(`the environment does not load: ${loaded.error.message}`);
  const state = await loaded.value.state();
  await loaded.value.close();
  return state.ok ? ok(Object.keys(state.value).sort()) : err(state.error.message);
}

export async function validateInitialState(
  state: JsonObject,
  env: EnvironmentContext,
  keys: string[],
  deps: Pick<ScenStageDeps, "sandbox">,
): Promise<Result<JsonObject, string>> {
  const unknown = Object.keys(state).filter((k) => !keys.includes(k));
  const missing = keys.filter((k) => !(k in state));
  if (unknown.length || missing.length)
    return err(
      `top-level keys must be exactly ${keys.join(", ")}${unknown.length ? `; unknown: ${unknown.join(", ")}` : ""}${missing.length ? `; missing: ${missing.join(", ")}` : ""}`,
    );
  const loaded = await deps.sandbox.load({
    source: env.source,
    className: env.className,
    initialState: state,
  });
  if (!loaded.ok) return err(`the environment does not load with this state: ${loaded.error.message}`);
  await loaded.value.close();
  return ok(state);
}

export async function generateInitialState(
  env: EnvironmentContext,
  deps: ScenStageDeps,
): ScenStageResult<JsonObject> {
  const keys = await stateKeysOf(env, deps);
  if (!keys.ok) return err({ code: "ENVIRONMENT_BROKEN", message: keys.error, retryable: false });
  const reply = await chatParsed(
    deps.llm,
    {
      model: deps.model,
      temperature: 0.7,
      cacheSalt: deps.cacheSalt,
      purpose: "initial state",
      messages: [
        { role: "system", content: SYSTEM },
        {
          role: "user",
          content: `# Environment code\n\`\`\`python\n${env.source}\n\`\`\`\n\n# State definition\n${pretty(env.stateSchema)}\n\n# All containers\n${keys.value.join(", ")}`,
        },
      ],
    },
    async (r) => {
      const json = extractJsonObject(r.content ?? "");
      if (!json.ok) return json;
      const state = JsonObjectSchema.safeParse(json.value);
      return state.success
        ? validateInitialState(state.data, env, keys.value, deps)
        : err("the answer must be a JSON object");
    },
  );
  return reply.ok ? ok(reply.value.value) : reply;
}
