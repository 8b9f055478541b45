/**
 * TEST ONLY. Runs the scripted OpenAI-compatible server as its own process for the browser tier:
 * the e2e studio's worker talks to it like to any endpoint. Answers the SkelBuilder stages from
 * the library-lending sample. An idea containing "flaky" meets a bad endpoint once per prompt: a
 * 429 with Retry-After and a 500 on its state stage, and a reply of the wrong shape on its
 * operations stage. A check repair of a check marked `# e2e: expects 3, the gold adds 2` gets its
 * fix, and an environment repair of code marked `# e2e: adds twice` gets the right method
 * (e2e/repair-queue.spec.ts); any other repair gets an answer without code (a FAILED proposal).
 * usage: tsx tests/fake-openai/serve.ts <port>
 */
import { createPipelineScript, withFaults } from "./pipeline-script";
import { loadSampleEnv } from "./sample-env";
import { promptText, startFakeOpenAi } from "./server";

const port = Number(process.argv[2] ?? 0);
const seen = new Set<string>();
const once = (key: string) => !seen.has(key) && Boolean(seen.add(key));
const E2E_REPAIR_MARK = "# e2e: expects 3, the gold adds 2";
const E2E_REPAIR_FIX = "def check_func(final_state):\n    return final_state.get('count') == 2\n";

const E2E_ENV_MARK = "# e2e: adds twice";
const E2E_ENV_FIX = `def add(self, amount: int) -> dict:
    """Add to the counter."""
    self.count += amount
    return {"success": True, "data": self.count}
`;

const script = withFaults(createPipelineScript([loadSampleEnv("library-lending")]), (body, stage) => {
  const text = promptText(body);
  if (stage === "repair_check" || stage === "repair_weak_check")
    return {
      content: text.includes(E2E_REPAIR_MARK)
        ? `# Diagnosis\nThe gold solution adds 2, not 3.\n# Fix\n\`\`\`python\n${E2E_REPAIR_FIX}\`\`\`\n`
        : "The check looks fine to me; no change is needed.",
    };
  if (stage === "repair_environment")
    return {
      content: text.includes(E2E_ENV_MARK)
        ? `# Diagnosis\nadd added the amount twice.\n# Fix\n\`\`\`python\n${E2E_ENV_FIX}\`\`\`\n`
        : "The code looks fine to me; no change is needed.",
    };
  if (!text.includes("flaky")) return null;
  if (stage === "state" && once(`429 ${text}`))
    return { status: 429, headers: { "retry-after-ms": "50" }, message: "slow down" };
  if (stage === "state" && once(`500 ${text}`)) return { status: 500, message: "upstream exploded" };
  if (stage === "operations" && once(`shape ${text}`))
    return { content: JSON.stringify({ unexpected: "shape" }) };
  return null;
});
const fake = await startFakeOpenAi({ port, script });
console.log(`fake OpenAI-compatible server on ${fake.url}`);
const stop = () => void fake.close().then(() => process.exit(0));
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
