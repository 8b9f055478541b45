#!/usr/bin/env node
// CLI entry (`npx envstudio …`): registers tsx so the TypeScript sources run without a build step.
import { register } from "tsx/esm/api";

register();
const { main } = await import("../lib/cli/main.ts");
process.exitCode = await main(process.argv.slice(2));
