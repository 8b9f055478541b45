/**
 * The offline demo's "model": canned replies, never a real LLM. It answers every prompt the studio
 * sends (SkelBuilder stages, ScenGenerator stages, the proof's gold calls, rollout agents and user
 * simulators) from the hand-written sample environments in prisma/seed/samples, picking the sample
 * an idea names (clinic, shop, library; the library otherwise). The product never imports this
 * folder: `npm start -- --demo` (or ENVSTUDIO_DEMO=1) starts it and points OPENAI_BASE_URL at it.
 * The scripts are the ones the test tiers use (tests/fake-openai).
 */
import { DEMO_MODEL_NAME } from "../lib/llm/demo-model";
import { LLM_STAGES } from "../lib/pipeline/pipeline.schema";
import { loadSamples, type Sample } from "../prisma/seed/load-samples";
import { createPipelineScript } from "../tests/fake-openai/pipeline-script";
import { loadSampleEnv, type SampleEnv } from "../tests/fake-openai/sample-env";
import { createScenarioScript } from "../tests/fake-openai/scenario-script";
import { type ChatBody, type Script, promptText, stageOf } from "../tests/fake-openai/server";

/** The model name the demo studio uses for every stage: the UI labels it as canned replies. */
export const DEMO_MODEL = DEMO_MODEL_NAME;

/** Words of an idea that pick a sample; anything else gets the library. */
const KEYWORDS: [RegExp, string][] = [
  [/clinic|doctor|patient|appointment/i, "clinic-scheduling"],
  [/shop|order|refund|store|e-?commerce/i, "shop-orders-refunds"],
];
const FALLBACK = "library-lending";

const PIPELINE_STAGES = new Set<string>(LLM_STAGES);

/** The sample task whose initial state is the one after "# Initial state" in the prompt. */
function taskForState(sample: Sample, prompt: string): string | null {
  const raw = prompt.split("# Initial state\n")[1];
  if (!raw) return null;
  const state = JSON.stringify(JSON.parse(raw) as unknown);
  return sample.scenarios.find((s) => JSON.stringify(s.init_config) === state)?.task ?? null;
}

const allText = (body: ChatBody) => body.messages.map((m) => m.content ?? "").join("\n");

export function createDemoScript(): Script {
  const samples = new Map<string, Sample>(loadSamples().map((s) => [s.slug, s]));
  const envs = new Map<string, SampleEnv>([...samples.keys()].map((slug) => [slug, loadSampleEnv(slug)]));
  const bySlug = (slug: string) => envs.get(slug) ?? envs.get(FALLBACK)!;
  const pickSlug = (text: string) => KEYWORDS.find(([re]) => re.test(text))?.[1] ?? FALLBACK;
  const pipeline = createPipelineScript([bySlug(FALLBACK)], { pick: (text) => bySlug(pickSlug(text)) });
  const scenarioScripts = new Map([...samples].map(([slug, s]) => [slug, createScenarioScript(s)]));
  // Scenario prompts carry the environment's code: its class name says which sample answers.
  const sampleOf = (body: ChatBody) => {
    const text = allText(body);
    const hit = [...samples.values()].find((s) => text.includes(s.meta.env_class_name));
    return hit?.slug ?? FALLBACK;
  };
  return (body, index) => {
    const stage = stageOf(body);
    if (stage && PIPELINE_STAGES.has(stage)) return pipeline(body, index);
    const slug = sampleOf(body);
    // Scenarios are generated concurrently: the task must belong to the initial state in the prompt
    // (not to the k-th request), or the gold calls would be replayed on another scenario's state.
    if (stage === "scen_task") {
      const task = taskForState(samples.get(slug)!, promptText(body));
      if (task) return { content: `# Analysis\nmulti-step\n# Task\n${task}` };
    }
    return scenarioScripts.get(slug)!(body, index);
  };
}
