#!/usr/bin/env node
// CLI entry (`npx envstudio …`): registers tsx so the TypeScript sources run without a build step.
import { fileURLToPath } from "node:url";
import { register } from "tsx/esm/api";

// The project's tsconfig whatever the working directory: its paths map `@/…` and make the
// `server-only` marker of lib/*/server modules a no-op outside Next.
register({ tsconfig: fileURLToPath(new URL("../tsconfig.json", import.meta.url)) });
const { main } = await import("../lib/cli/main.ts");
process.exitCode = await main(process.argv.slice(2));
