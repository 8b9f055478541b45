/**
 * TEST ONLY. The environment server in its own process, serving the counter dataset, so a test can
 * attack it and then check that the process is still alive. Prints `{"port": N}` once listening.
 * Usage: tsx tests/child/env-server.ts
 */
import { startEnvServer } from "@/lib/envserver/start-server";
import { counterCatalog, loopbackOptions } from "@/lib/envserver/tests/harness";
import { createSandboxRunner } from "@/lib/sandbox";

const sandbox = createSandboxRunner({ poolSize: 2 });
const server = await startEnvServer(counterCatalog(), sandbox, loopbackOptions());
console.log(JSON.stringify({ port: server.port }));
process.once(
  "SIGTERM",
  () =>
    void server
      .stop()
      .then(() => sandbox.close())
      .then(() => process.exit(0)),
);
