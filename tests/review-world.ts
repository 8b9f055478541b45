/** TEST ONLY. The review DB tests' starting point: environments waiting for review, and two reviewers. */
import type { Db } from "@/lib/db";
import { actorOf, createEnvironment, createTestProject, createUser } from "@/prisma/seed/factories";

/** A new project with `envCount` retail environments IN_REVIEW, and reviewers alice and bob. */
export async function seedReviewWorld(db: Db, envCount: number) {
  const project = await createTestProject(db);
  const envs = [];
  for (let i = 0; i < envCount; i++)
    envs.push(await createEnvironment(db, project.id, { status: "IN_REVIEW", domain: "retail" }));
  const alice = actorOf(await createUser(db));
  const bob = actorOf(await createUser(db));
  return { project, envs, alice, bob };
}
