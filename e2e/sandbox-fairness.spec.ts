/**
 * One user cannot monopolise the sandbox: while a user's playground call runs, their
 * next interactive sandbox call is refused at once with "Busy … Retry", and another user's call runs.
 */
import { createEnvironment, createUser } from "../prisma/seed/factories";
import { createSession } from "../lib/auth/server/sessions";
import { SESSION_COOKIE } from "../lib/auth/login-policy";
import { actionResult, serverAction, type ActionReply } from "./actions";
import { defaultProjectId, deleteEnvironments, e2eDb, unique } from "./db";
import { expect, test } from "./fixtures";

const created: string[] = [];
test.afterAll(() => deleteEnvironments(created));

/** `spin` runs until the sandbox's step time limit ends it: a stand-in for expensive code. */
const SOURCE = `class Counter:
    def __init__(self, init_config=None):
        self.count = 0

    def get_count(self) -> dict:
        """Return the counter."""
        return {"success": True, "data": self.count}

    def spin(self) -> dict:
        """Never returns on its own."""
        while True:
            pass
`;

test("a second sandbox call of the same user answers busy at once; another user's call runs", async ({
  request,
}) => {
  const env = await createEnvironment(e2eDb(), await defaultProjectId(), {
    name: unique("fair-env"),
    source: SOURCE,
  });
  created.push(env.id);
  const reviewer = await createUser(e2eDb(), { role: "REVIEWER" });
  const { token } = await createSession(e2eDb(), reviewer.id);
  const action = serverAction("runToolAction");
  const run = (name: string, cookie?: string): Promise<ActionReply | null> =>
    request
      .post(action.page.replace("/x/", `/${env.id}/`), {
        headers: {
          "next-action": action.id,
          "content-type": "text/plain;charset=UTF-8",
          accept: "text/x-component",
          ...(cookie ? { cookie } : {}),
        },
        data: JSON.stringify([
          {
            environmentId: env.id,
            versionId: env.currentVersionId,
            initialState: {},
            history: [],
            call: { name, args: {} },
          },
        ]),
      })
      .then(async (r) => actionResult(await r.text()));

  // The local admin (no cookie on localhost) starts expensive code…
  let spinDone = false;
  let spin: Promise<ActionReply | null> = Promise.resolve(null);
  // …and until it ends, each further call of theirs is refused with a busy answer, not queued.
  let busy: ActionReply | null = null;
  // The two requests race to the server: if the quick call takes the user's slot first, the spin
  // is the one refused as busy; then start it again (a few tries at most).
  for (let attempt = 0; attempt < 5 && !busy; attempt++) {
    spinDone = false;
    spin = run("spin").finally(() => (spinDone = true));
    while (!spinDone && !busy) {
      const reply = await run("get_count");
      if (reply?.ok === false && (reply.error as { code?: string }).code === "RATE_LIMITED") busy = reply;
    }
    if (!busy) await spin;
  }
  expect(busy, "a busy answer while the first call ran").not.toBeNull();
  expect((busy?.error as { message: string }).message).toMatch(/^Busy: .*Retry when it finishes/);
  // Another user, meanwhile, gets a worker and an answer.
  expect(spinDone, "the expensive call was still running when the other user called").toBe(false);
  const other = await run("get_count", `${SESSION_COOKIE}=${token}`);
  expect(other).toMatchObject({ ok: true, value: { observation: { success: true, data: 0 } } });
  await spin;
  // Once it ended, the first user may call again.
  expect(await run("get_count")).toMatchObject({ ok: true });
});
