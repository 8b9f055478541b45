/**
 * The models an OpenAI-compatible endpoint serves (`GET /v1/models`): what a run may name. A model
 * it does not list is refused before anything starts, instead of failing every LLM call later.
 */
import { z } from "zod";

const ModelListSchema = z.object({ data: z.array(z.object({ id: z.string() })) });

export type ListModelsDeps = { fetch: typeof fetch };

/** The ids the endpoint lists; throws with the endpoint's status or a shape it cannot read. */
export async function listModels(
  baseUrl: string,
  apiKey: string,
  deps: ListModelsDeps = { fetch },
): Promise<string[]> {
  const url = `${baseUrl.replace(/\/+$/, "")}/models`;
  const res = await deps.fetch(url, { headers: apiKey ? { authorization: `Bearer ${apiKey}` } : {} });
  if (!res.ok) throw new Error(`GET ${url} answered ${res.status}`);
  const parsed = ModelListSchema.safeParse(await res.json());
  if (!parsed.success) throw new Error(`GET ${url} did not answer a model list`);
  return parsed.data.data.map((m) => m.id);
}

/** The asked models the endpoint does not list, in the order asked. */
export const unknownModels = (asked: readonly string[], listed: readonly string[]) =>
  asked.filter((m) => !listed.includes(m));
