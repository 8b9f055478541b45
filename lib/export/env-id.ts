/**
 * The env_id an export gives each pinned environment version: the slug, and `slug@vN` for the older
 * versions when a dataset version pins two versions of one environment, so their ids stay distinct.
 */
export function exportEnvIds(
  versions: readonly { id: string; slug: string; version: number }[],
): Map<string, string> {
  const latest = new Map<string, number>();
  for (const v of versions) latest.set(v.slug, Math.max(latest.get(v.slug) ?? 0, v.version));
  return new Map(
    versions.map((v) => [v.id, latest.get(v.slug) === v.version ? v.slug : `${v.slug}@v${v.version}`]),
  );
}
