/**
 * Environments that share a name are told apart by their env_id (the slug). A list shows the id
 * beside a name only where that name belongs to more than one environment among its rows.
 */
export function collidingNames(envs: { id: string; name: string }[]): Set<string> {
  const ids = new Map<string, Set<string>>();
  for (const e of envs) (ids.get(e.name) ?? ids.set(e.name, new Set()).get(e.name)!).add(e.id);
  return new Set([...ids].filter(([, set]) => set.size > 1).map(([name]) => name));
}

/** "Name" or, where the name is shared, "Name (env_id)". */
export const distinctName = (env: { name: string; slug: string }, colliding: Set<string>) =>
  colliding.has(env.name) ? `${env.name} (${env.slug})` : env.name;
