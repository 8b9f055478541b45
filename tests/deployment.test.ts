/**
 * The deployment files (Dockerfile, deploy/compose.yaml, deploy/nginx.conf, deploy/haproxy.cfg) are
 * not built here, so
 * they must only use what the test tiers exercise: every file the image copies exists, every
 * command a container runs is an npm script or an `envstudio` command with flags it accepts, every
 * variable the compose file sets is one the studio documents, build output, local databases
 * and secrets stay out of the image, and the load balancers route on the handle the servers emit.
 */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { COMMAND_GROUPS } from "@/lib/cli/commands";
import { SERVE_FLAGS } from "@/lib/cli/serve-command";
import { EPISODE_HEADER } from "@/lib/envserver/http-routes";
import { pathRoute } from "@/lib/envserver/http-server";

const ROOT = path.resolve(import.meta.dirname, "..");
const read = (file: string) => readFileSync(path.join(ROOT, file), "utf8");
const SCRIPTS = Object.keys(
  (JSON.parse(read("package.json")) as { scripts: Record<string, string> }).scripts,
);
const FLAGS_OF: Record<string, readonly string[]> = { serve: SERVE_FLAGS.strings };

/** `COPY a b ./dest/` → ["a", "b"] (sources only; `COPY . .` copies the context). */
function copiedSources(dockerfile: string): string[] {
  return dockerfile
    .split("\n")
    .filter((line) => /^COPY\s/.test(line))
    .flatMap((line) => line.trim().split(/\s+/).slice(1, -1))
    .filter((source) => source !== ".");
}

/** The commands containers run: Dockerfile `CMD [...]` and compose `command: [...]`. */
function containerCommands(dockerfile: string, compose: string): string[][] {
  const arrays = [
    ...[...dockerfile.matchAll(/^CMD (\[.*\])$/gm)].map((m) => m[1]!),
    // Flow sequences of quoted strings, on one line or (as prettier writes long ones) several.
    ...[...compose.matchAll(/^\s+command:\s*(\[[^\]]*\])/gm)].map((m) => m[1]!.replace(/,\s*\]$/, "]")),
  ];
  return arrays.map((a) => JSON.parse(a) as string[]);
}

/** What a command needs to exist: an npm script, or an envstudio command and its flags. */
function problemsOf(command: string[]): string[] {
  const [tool, first, second, ...rest] = command;
  if (tool === "npm" && first === "start") return SCRIPTS.includes("start") ? [] : ["no start script"];
  if (tool === "npm" && first === "run")
    return second && SCRIPTS.includes(second) ? [] : [`no npm script ${second}`];
  if (tool === "npx" && first === "envstudio") {
    const group = COMMAND_GROUPS.find((g) => g.name === second);
    if (!group || !second) return [`no envstudio command ${second}`];
    const known = FLAGS_OF[second] ?? [];
    return rest
      .filter((arg) => arg.startsWith("--"))
      .filter((flag) => !known.includes(flag.slice(2)))
      .map((flag) => `envstudio ${second} takes no ${flag}`);
  }
  return [`not a command CI runs: ${command.join(" ")}`];
}

/** Variables the compose file sets for the EnvStudio image (its `environment:` maps). */
function studioVariables(compose: string): string[] {
  const names = new Set<string>();
  let inEnvironment = false;
  for (const line of compose.split("\n")) {
    if (/^\s+environment:/.test(line)) inEnvironment = true;
    else if (inEnvironment && /^\s{4,}[A-Z][A-Z0-9_]*:/.test(line)) names.add(line.trim().split(":")[0]!);
    else if (!/^\s{4,}(<<|#)/.test(line)) inEnvironment = false;
  }
  return [...names].filter((n) => !n.startsWith("POSTGRES_")); // the postgres image's own
}

describe("deployment files", () => {
  const dockerfile = read("Dockerfile");
  const compose = read("deploy/compose.yaml");

  it("copies only files that exist", () => {
    const sources = copiedSources(dockerfile);
    expect(sources).toContain("package-lock.json");
    for (const source of sources) expect(existsSync(path.join(ROOT, source)), source).toBe(true);
  });

  it("runs `npm ci` to install and only commands the test tiers exercise", () => {
    expect(dockerfile).toMatch(/^RUN npm ci$/m);
    const commands = containerCommands(dockerfile, compose);
    expect(commands.map((c) => c.slice(0, 3).join(" "))).toEqual(
      expect.arrayContaining(["npm start", "npm run worker", "npx envstudio serve"]),
    );
    expect(commands.flatMap(problemsOf)).toEqual([]);
  });

  it("sets only variables the studio documents", () => {
    const documented = new Set(
      [...read(".env.example").matchAll(/^#?\s?([A-Z][A-Z0-9_]+)=/gm)].map((m) => m[1]),
    );
    const vars = studioVariables(compose);
    expect(vars).toEqual(
      expect.arrayContaining(["DATABASE_URL", "ENVSTUDIO_SERVE_TOKEN", "LLM_CONCURRENCY"]),
    );
    expect(vars.filter((v) => !documented.has(v))).toEqual([]);
  });

  it("keeps dependencies, build output, local databases and secrets out of the image", () => {
    const ignored = read(".dockerignore").split("\n");
    for (const entry of ["node_modules", ".next", ".data", ".data-*", ".env", ".git"])
      expect(ignored, entry).toContain(entry);
  });

  it("routes the load balancer to the serve replicas with WebSocket upgrades", () => {
    const nginx = read("deploy/nginx.conf");
    expect(nginx).toMatch(/server serve:8100/);
    expect(nginx).toMatch(/hash \$envstudio_hash_key consistent;/);
    expect(nginx).toMatch(/proxy_set_header Upgrade \$http_upgrade;/);
    expect(compose).toMatch(/\.\/nginx\.conf:\/etc\/nginx\/conf\.d\/default\.conf/);
  });

  it("hashes nginx on the episode handle the servers emit, falling back to the client's address", () => {
    const nginx = read("deploy/nginx.conf");
    // nginx names a request header $http_<name>, lower case, dashes as underscores.
    expect(nginx).toContain(`map $http_${EPISODE_HEADER.replace(/-/g, "_")} $envstudio_route`);
    expect(nginx).toMatch(/map \$envstudio_route \$envstudio_hash_key \{\s*""\s+\$remote_addr;/);
    // The path form: what nginx extracts is the episode a served route acts on.
    const pattern = /~(\^\/episodes\/\S+)\s+\$episode;/.exec(nginx)?.[1];
    expect(pattern).toBeDefined();
    const regex = new RegExp(pattern!);
    for (const [method, path] of [
      ["POST", "/episodes/ep-1/step"],
      ["GET", "/episodes/ep-1/state"],
    ] as const) {
      expect(regex.exec(path)?.groups?.episode).toBe("ep-1");
      expect(pathRoute(method, path)).toEqual({ key: `${method} /${path.split("/")[3]}`, episode: "ep-1" });
    }
  });

  it("gives HAProxy the same rule, learning each episode's replica from the servers' answers", () => {
    const haproxy = read("deploy/haproxy.cfg");
    expect(read("docs/deployment.md")).toContain("deploy/haproxy.cfg");
    expect(haproxy).toMatch(/^\s+balance source$/m);
    expect(haproxy).toMatch(/^\s+hash-type consistent$/m);
    expect(haproxy).toMatch(/^\s+option httpchk GET \/ready$/m);
    const stored = [...haproxy.matchAll(/stick store-response res\.hdr\(([\w-]+)\)/g)].map((m) =>
      m[1]!.toLowerCase(),
    );
    const matched = [...haproxy.matchAll(/stick match req\.hdr\(([\w-]+)\)/g)].map((m) =>
      m[1]!.toLowerCase(),
    );
    expect(stored).toContain(EPISODE_HEADER);
    expect(matched).toContain(EPISODE_HEADER);
    // field(3,/) of "/episodes/<id>/step" is <id> (fields count from 1; the first is empty).
    expect(haproxy).toMatch(/stick match path,field\(3,\/\) if \{ path_beg \/episodes\/ \}/);
  });
});
