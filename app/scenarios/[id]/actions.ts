"use server";
import { revalidatePath } from "next/cache";
import { getDb } from "@/lib/db";
import { runAction } from "@/lib/auth/server/run-action";
import { getSandboxRunner, userSandboxSlots } from "@/lib/sandbox";
import { RunBenchInputSchema } from "@/lib/scenarios/bench.schema";
import { runValidatorBench } from "@/lib/scenarios/server/run-validator-bench";
import { findValidatorEnvironmentId } from "@/lib/scenarios/server/find-validator-environment";
import { reproveAfterEdit } from "@/lib/scenarios/server/reprove-after-edit";
import { saveValidatorVersion } from "@/lib/scenarios/server/save-validator-version";
import { SaveValidatorVersionInputSchema } from "@/lib/scenarios/validator.schema";

export async function runBenchAction(raw: unknown) {
  return runAction(raw, RunBenchInputSchema, "REVIEWER", (input, user) =>
    userSandboxSlots().run(user.id ?? user.email, () =>
      runValidatorBench(getDb(), input, getSandboxRunner()),
    ),
  );
}

export async function saveValidatorVersionAction(raw: unknown) {
  return runAction(raw, SaveValidatorVersionInputSchema, "REVIEWER", async (input, user) => {
    const db = getDb();
    const saved = await saveValidatorVersion(db, input, user, getSandboxRunner());
    const environmentId = await findValidatorEnvironmentId(db, input.validatorId);
    const reprove = await reproveAfterEdit(db, { environmentId, actorId: user.id });
    revalidatePath("/scenarios", "layout");
    return { ...saved, reprove };
  });
}
