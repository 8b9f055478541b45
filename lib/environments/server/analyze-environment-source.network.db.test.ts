// Network isolation, surface "editor analysis": the live analysis the code editor asks for
// (analyzeEnvironmentSource, on the product's own sandbox runner, unjailed) gets source with the
// network payload (tests/network-canary.ts) at module level, in the class body and in methods.
// Analysis reads the code, it never runs it: it returns the tools and marks the forbidden imports,
// saving the same code (which analyses it again) is refused, and the loopback listener, checked
// after a wait for delayed payloads, saw no connection.
import { describe, expect, it } from "vitest";
import { createEnvironment, createTestProject, createUser } from "@/prisma/seed/factories";
import { useTestDatabase } from "@/tests/db";
import {
  networkPayload,
  payloadEnvironment,
  useCanary,
  useUnjailedProductSandbox,
} from "@/tests/network-canary";
import { analyzeEnvironmentSource } from "./analyze-environment-source";
import { saveEnvironmentVersion } from "./save-environment-version";

const t = useTestDatabase();
const canary = useCanary();
const sandbox = useUnjailedProductSandbox();

/** The payload environment with the payload also at module level and in the class body. */
function everywhere(port: number): string {
  const env = payloadEnvironment(port);
  const header = "class Counter:\n";
  const inClassBody = `${header}${networkPayload(port, 4)}\n\n`;
  return `${networkPayload(port)}\n\n${env.replace(header, inClassBody)}`;
}

describe("editor analysis: network payload (host not jailed)", () => {
  it("lists the tools without running any of the payload, and the listener sees no connection", async () => {
    const project = await createTestProject(t.db);
    const env = await createEnvironment(t.db, project.id);
    const source = everywhere(canary.port);
    expect(source.match(/create_connection/g)?.length).toBe(3 * 3);
    const analysis = await analyzeEnvironmentSource(t.db, { environmentId: env.id, source }, sandbox());
    // The editor shows the forbidden imports as errors where they stand, the module level too.
    const errors = analysis.markers.filter((m) => m.severity === "error");
    expect(errors).toContainEqual(
      expect.objectContaining({
        line: 3,
        message: expect.stringMatching(/import of 'socket' is not allowed/) as unknown,
      }),
    );
    expect(errors.map((m) => m.message)).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/'js'/),
        expect.stringMatching(/'pyodide_js'/),
        expect.stringMatching(/'threading'/),
      ]),
    );
    expect(analysis.tools.map((tool) => tool.function.name).sort()).toEqual(["add", "reach_out"]);
    // Saving it runs the same analysis, and is refused on those markers; nothing runs either.
    const user = await createUser(t.db, { role: "REVIEWER" });
    const actor = { id: user.id, email: user.email, name: user.name, role: user.role };
    const save = saveEnvironmentVersion(
      t.db,
      { environmentId: env.id, baseVersionId: env.currentVersionId!, source, message: "payload" },
      actor,
      sandbox(),
    );
    await expect(save).rejects.toMatchObject({
      code: "INVALID_INPUT",
      message: expect.stringMatching(/fix the errors/) as unknown,
    });
    expect(await canary.settle()).toBe(0);
  }, 60_000);
});
