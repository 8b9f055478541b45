/**
 * The server's self-description, in the shapes upstream OpenEnv serves (FastAPI's /openapi.json,
 * /schema with JSON Schemas of action, observation and state, /metadata as `EnvironmentMetadata`,
 * which forbids any field it does not declare). Upstream's validator reads `info.version` and
 * infers the "simulation" mode from /reset, /step and /state being listed under `paths`.
 */
import type { Catalog } from "./catalog";

/** The wire protocol's version (OpenEnv's runtime profile "openenv-http/1.x"). */
export const PROTOCOL_VERSION = "1.0.0";

const ACTION_SCHEMA = {
  title: "EnvStudioAction",
  description:
    'Call one environment tool; the tool named "submit" ends the episode and scores it. {"type": "list_tools"} lists the tools.',
  type: "object",
  properties: {
    type: { type: "string", enum: ["call_tool", "list_tools"] },
    tool_name: { type: "string" },
    arguments: { type: "object", additionalProperties: true },
    metadata: { type: "object", additionalProperties: true },
  },
} as const;

const OBSERVATION_SCHEMA = {
  title: "EnvStudioObservation",
  type: "object",
  properties: {
    content: { description: "The task (after reset), the tool's result, or the checks (after submit)." },
    tools: { type: "array", items: { type: "object" } },
    metadata: {
      type: "object",
      additionalProperties: true,
      description: "episode_id, session_key (HTTP), step_count, checks, diff (when reset asked for it)",
    },
    done: { type: "boolean" },
    reward: { anyOf: [{ type: "number" }, { type: "null" }] },
  },
} as const;

const STATE_SCHEMA = {
  title: "EnvStudioState",
  type: "object",
  additionalProperties: true,
  properties: {
    episode_id: { anyOf: [{ type: "string" }, { type: "null" }] },
    step_count: { type: "integer", minimum: 0 },
    scenario_id: { type: "string" },
    done: { type: "boolean" },
    reward: { anyOf: [{ type: "number" }, { type: "null" }] },
    snapshot: {
      type: "object",
      additionalProperties: true,
      description: "The environment's state; kept after the episode ends.",
    },
  },
} as const;

export const SCHEMAS = { action: ACTION_SCHEMA, observation: OBSERVATION_SCHEMA, state: STATE_SCHEMA };

/** `EnvironmentMetadata`: only name, description, readme_content, version, author, documentation_url. */
export function metadataOf(catalog: Catalog) {
  return {
    name: `envstudio/${catalog.name}`,
    description: `EnvStudio dataset ${catalog.name}: ${catalog.scenarios.length} scenarios (tool-calling environments scored by their checklist on submit).`,
    version: PROTOCOL_VERSION,
    author: "EnvStudio",
  };
}

const json = (schema: object) => ({ content: { "application/json": { schema } } });
const stepResponse = {
  type: "object",
  required: ["observation"],
  properties: {
    observation: { type: "object" },
    reward: { anyOf: [{ type: "number" }, { type: "null" }] },
    done: { type: "boolean" },
  },
};

export function openApiDocument(catalog: Catalog) {
  const op = (summary: string, response: object, body?: object) => ({
    summary,
    ...(body ? { requestBody: json(body) } : {}),
    responses: { "200": { description: "OK", ...json(response) } },
  });
  return {
    openapi: "3.1.0",
    info: { title: `EnvStudio environment server: ${catalog.name}`, version: PROTOCOL_VERSION },
    paths: {
      "/reset": {
        post: op("Start an episode (scenario_id, seed, episode_id optional)", stepResponse, {
          type: "object",
          additionalProperties: true,
          properties: {
            seed: { type: "integer", minimum: 0 },
            episode_id: { type: "string" },
            scenario_id: { type: "string" },
            diff: { type: "boolean", description: "each step's metadata carries the state diff" },
            split: { type: "string", enum: ["train", "test"], description: "with index: a Task API task" },
            index: { type: "integer", minimum: 0 },
          },
        }),
      },
      "/step": {
        post: op("Act in the episode named by episode_id + session_key", stepResponse, {
          type: "object",
          required: ["action"],
          additionalProperties: true,
          properties: {
            action: ACTION_SCHEMA,
            episode_id: { type: "string" },
            session_key: { type: "string" },
          },
        }),
      },
      "/state": {
        get: op("The episode's state (episode_id and session_key as query parameters)", STATE_SCHEMA),
      },
      "/close": {
        post: op(
          "Close the episode",
          { type: "object" },
          { type: "object", properties: { episode_id: { type: "string" }, session_key: { type: "string" } } },
        ),
      },
      "/metadata": { get: op("Environment metadata", { type: "object" }) },
      "/schema": { get: op("JSON schemas of action, observation and state", { type: "object" }) },
      "/health": { get: op("Health check", { type: "object", properties: { status: { type: "string" } } }) },
      "/mcp": {
        post: op(
          "MCP JSON-RPC 2.0: tools/list, tools/call, openenv/session/create, openenv/session/close",
          { type: "object" },
          { type: "object" },
        ),
      },
      "/mcp/episodes": {
        post: op("Start an MCP episode at its own URL (2026-07-28 clients)", EPISODE_CREATED, {
          type: "object",
          properties: {
            scenario_id: { type: "string" },
            seed: { type: "integer", minimum: 0 },
            split: { type: "string", enum: ["train", "test"] },
            index: { type: "integer", minimum: 0 },
          },
        }),
      },
      ...taskApiPaths(),
    },
  };
}

const EPISODE_CREATED = {
  type: "object",
  properties: {
    handle: { type: "string" },
    url: { type: "string" },
    scenario_id: { type: "string" },
    task: { type: "string" },
  },
};

const TASK = {
  type: "object",
  properties: {
    id: { type: "string" },
    index: { type: "integer" },
    split: { type: "string" },
    env_id: { type: "string" },
    task_id: { type: "string" },
    task: { type: "string" },
  },
};

/** OpenEnv's Task API (task-api.ts), tagged as upstream tags it. */
function taskApiPaths() {
  const op = (summary: string, response: object, body?: object) => ({
    tags: ["Task API"],
    summary,
    ...(body ? { requestBody: json(body) } : {}),
    responses: { "200": { description: "OK", ...json(response) } },
  });
  const splitBody = (extra: Record<string, object> = {}) => ({
    type: "object",
    required: ["split", ...Object.keys(extra).filter((k) => k === "index")],
    additionalProperties: false,
    properties: { split: { type: "string" }, ...extra },
  });
  const env = { name: "env_name", in: "path", required: true, schema: { type: "string" } };
  return {
    "/list_environments": {
      get: op("This server's environment (its dataset)", { type: "array", items: { type: "string" } }),
    },
    "/{env_name}/splits": {
      get: { ...op("The dataset's splits", { type: "array", items: { type: "object" } }), parameters: [env] },
    },
    "/{env_name}/tasks": {
      post: {
        ...op(
          "A split's tasks",
          { type: "object", properties: { tasks: { type: "array", items: TASK } } },
          splitBody(),
        ),
        parameters: [env],
      },
    },
    "/{env_name}/num_tasks": {
      post: {
        ...op(
          "How many tasks a split has",
          { type: "object", properties: { num_tasks: { type: "integer" } } },
          splitBody(),
        ),
        parameters: [env],
      },
    },
    "/{env_name}/task": {
      post: {
        ...op(
          "One task by index",
          { type: "object", properties: { task: TASK } },
          splitBody({ index: { type: "integer" } }),
        ),
        parameters: [env],
      },
    },
    "/{env_name}/task_range": {
      post: {
        ...op(
          "Tasks [start, stop) of a split (Python slice bounds)",
          { type: "object", properties: { tasks: { type: "array", items: TASK } } },
          splitBody({ start: { type: ["integer", "null"] }, stop: { type: ["integer", "null"] } }),
        ),
        parameters: [env],
      },
    },
  };
}
