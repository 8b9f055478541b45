/**
 * TEST ONLY. Runs the scripted OpenAI-compatible server as its own process for the browser tier:
 * the e2e studio's worker talks to it like to any endpoint. Answers the SkelBuilder stages from
 * the library-lending sample. usage: tsx tests/fake-openai/serve.ts <port>
 */
import { createPipelineScript } from "./pipeline-script";
import { loadSampleEnv } from "./sample-env";
import { startFakeOpenAi } from "./server";

const port = Number(process.argv[2] ?? 0);
const fake = await startFakeOpenAi({ port, script: createPipelineScript([loadSampleEnv("library-lending")]) });
console.log(`fake OpenAI-compatible server on ${fake.url}`);
const stop = () => void fake.close().then(() => process.exit(0));
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
