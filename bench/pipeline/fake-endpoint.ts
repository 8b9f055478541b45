/**
 * The scripted endpoint of `npm run bench -- pipeline`, in a process of its own as a real endpoint
 * would be: inside the worker's process its latency timers and request parsing shared one event
 * loop with the pipeline (replies came ~7 ms late while the worker was busy). Reports its URL, and
 * on "records" the chat requests it answered (arrival, reply, stage). argv: latency in ms.
 */
import { createPipelineScript } from "../../tests/fake-openai/pipeline-script";
import { loadSampleEnv } from "../../tests/fake-openai/sample-env";
import { type ChatBody, stageOf, startFakeOpenAi } from "../../tests/fake-openai/server";

export type EndpointRecord = { at: number; respondedAt?: number; stage: string | null };
export type EndpointMessage = { url: string } | { records: EndpointRecord[] };

const sample = loadSampleEnv("library-lending", {
  operations: ["get_member", "list_member_loans", "renew_loan", "pay_fines"],
});
const fake = await startFakeOpenAi({
  script: createPipelineScript([sample]),
  latencyMs: Number(process.argv[2]),
});
const send = (message: EndpointMessage) => process.send?.(message);
send({ url: fake.url });
process.on("message", (message) => {
  if (message === "records")
    send({
      records: fake
        .chatRequests()
        .map((r) => ({ at: r.at, respondedAt: r.respondedAt, stage: stageOf(r.body as ChatBody) })),
    });
  if (message === "stop") void fake.close().then(() => process.exit(0));
});
