/**
 * Offline migrations for Prisma 7. The Prisma CLI downloads a native schema engine from outside
 * the npm registry before `migrate`, which fails on air-gapped machines and in CI. This drives the
 * npm-published wasm schema engine through @prisma/adapter-pg instead, reading and writing the
 * standard `prisma/migrations` folder and `_prisma_migrations` table, so online users can still
 * use the stock `prisma migrate`. Used by `npm run db:*`, the start script and the DB tests.
 */
import fs from "node:fs";
import path from "node:path";
import { createRequire } from "node:module";
import { randomUUID } from "node:crypto";
import * as bg from "@prisma/schema-engine-wasm/schema_engine_bg";
import { PrismaPg } from "@prisma/adapter-pg";
import { bindMigrationAwareSqlAdapterFactory, ColumnTypeEnum } from "@prisma/driver-adapter-utils";
import type { MigrationList, SchemaFilter } from "@prisma/schema-engine-wasm/schema_engine_bg";
import { pgConfigFromUrl } from "./database-url";
import { readEnv } from "../env";

const require = createRequire(import.meta.url);
const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), "../..");
const SCHEMA_PATH = path.join(ROOT, "prisma/schema.prisma");
const MIGRATIONS_DIR = path.join(ROOT, "prisma/migrations");
const FILTERS: SchemaFilter = { externalTables: [], externalEnums: [] };

type PgConfig = ReturnType<typeof pgConfigFromUrl>;
type Adapter = Awaited<ReturnType<PrismaPg["connect"]>>;

// The wasm engine reports panics through this global registry; it must exist before loading.
const g = globalThis as { PRISMA_WASM_PANIC_REGISTRY?: { message: string; set_message(m: string): void } };
g.PRISMA_WASM_PANIC_REGISTRY ??= {
  message: "",
  set_message(m) {
    this.message = `RuntimeError: ${m}`;
  },
};

let engineModule: Promise<void> | undefined;
function loadEngineModule(): Promise<void> {
  engineModule ??= (async () => {
    const wasmPath = path.join(
      path.dirname(require.resolve("@prisma/schema-engine-wasm")),
      "schema_engine_bg.wasm",
    );
    const { instance } = await WebAssembly.instantiate(fs.readFileSync(wasmPath), {
      "./schema_engine_bg.js": bg,
    });
    const exports = instance.exports as { __wbindgen_start: () => void };
    bg.__wbg_set_wasm(exports);
    exports.__wbindgen_start();
  })();
  return engineModule;
}

// adapter-pg 7.10 has no mapping for Postgres' internal "char" type (oid 18), which the schema
// engine's catalog queries return (relkind, contype…): report those columns as Character.
// Patched once on the shared PgQueryable prototype.
const CHAR_OID = 18;
const TEXT_OID = 25;
const charColumns = new WeakMap<object, number[]>();
async function patchCharColumns(cfg: PgConfig): Promise<void> {
  const probe = await new PrismaPg(cfg).connect();
  const proto = Object.getPrototypeOf(Object.getPrototypeOf(probe)) as Record<string, unknown> & {
    __charPatched?: boolean;
    performIO: (q: object) => Promise<{ fields?: { dataTypeID: number }[] }>;
    queryRaw: (q: object) => Promise<{ columnTypes: number[] }>;
  };
  await probe.dispose();
  if (proto.__charPatched) return;
  const { performIO, queryRaw } = proto;
  proto.performIO = async function (this: unknown, query: object) {
    const res = await performIO.call(this, query);
    const idx: number[] = [];
    res.fields?.forEach((f, i) => {
      if (f.dataTypeID === CHAR_OID) {
        idx.push(i);
        f.dataTypeID = TEXT_OID;
      }
    });
    if (idx.length) charColumns.set(query, idx);
    return res;
  };
  proto.queryRaw = async function (this: unknown, query: object) {
    const res = await queryRaw.call(this, query);
    for (const i of charColumns.get(query) ?? []) res.columnTypes[i] = ColumnTypeEnum.Character;
    return res;
  };
  proto.__charPatched = true;
}

/**
 * PrismaPg.connectToShadowDb() drops the shadow database before closing its pool, which Postgres
 * refuses; this creates and drops its own throwaway database in the right order.
 */
class ShadowSafePg extends PrismaPg {
  constructor(private readonly cfg: PgConfig) {
    super(cfg);
  }
  override async connectToShadowDb(): Promise<Adapter> {
    const admin = await new PrismaPg(this.cfg).connect();
    const db = `prisma_shadow_${randomUUID().replaceAll("-", "")}`;
    await admin.executeScript(`CREATE DATABASE "${db}"`);
    const shadow = await new PrismaPg({ ...this.cfg, database: db }).connect();
    const close = shadow.dispose.bind(shadow);
    shadow.dispose = async () => {
      await close();
      await admin.executeScript(`DROP DATABASE IF EXISTS "${db}"`);
      await admin.dispose();
    };
    return shadow;
  }
}

export function listMigrations(dir = MIGRATIONS_DIR): MigrationList {
  const lockPath = path.join(dir, "migration_lock.toml");
  const dirs = fs.existsSync(dir)
    ? fs
        .readdirSync(dir, { withFileTypes: true })
        .filter((d) => d.isDirectory())
        .map((d) => d.name)
        .sort()
    : [];
  return {
    baseDir: dir,
    lockfile: {
      path: "migration_lock.toml",
      content: fs.existsSync(lockPath) ? fs.readFileSync(lockPath, "utf8") : null,
    },
    shadowDbInitScript: "",
    migrationDirectories: dirs.map((name) => {
      const file = path.join(dir, name, "migration.sql");
      const content = fs.existsSync(file)
        ? ({ tag: "ok", value: fs.readFileSync(file, "utf8") } as const)
        : ({ tag: "error", value: `missing ${file}` } as const);
      return { path: name, migrationFile: { path: "migration.sql", content } };
    }),
  };
}

const schemaFiles = () => [{ path: SCHEMA_PATH, content: fs.readFileSync(SCHEMA_PATH, "utf8") }];

/** Runs `fn` with a schema engine connected to `databaseUrl`, closing every pool it opened. */
async function withEngine<T>(databaseUrl: string, fn: (engine: bg.SchemaEngine) => Promise<T>): Promise<T> {
  await loadEngineModule();
  const cfg = pgConfigFromUrl(databaseUrl);
  await patchCharColumns(cfg);
  // engine.free() does not dispose the adapters it opened: track and close their pools, otherwise
  // a template database keeps a connection and CREATE DATABASE … TEMPLATE fails.
  const factory = new ShadowSafePg(cfg);
  const opened: Adapter[] = [];
  const connect = factory.connect.bind(factory);
  factory.connect = async () => {
    const a = await connect();
    opened.push(a);
    return a;
  };
  const log = (msg: string) =>
    readEnv("DEBUG_SCHEMA_ENGINE") ? console.error("[schema-engine]", msg) : undefined;
  const engine = await bg.SchemaEngine.new(
    { datamodels: schemaFiles().map((f) => [f.path, f.content] as [string, string]) },
    log,
    bindMigrationAwareSqlAdapterFactory(factory),
  );
  try {
    return await fn(engine);
  } catch (error) {
    const panic = g.PRISMA_WASM_PANIC_REGISTRY?.message;
    throw panic ? new Error(`${panic} (${error instanceof Error ? error.message : String(error)})`) : error;
  } finally {
    engine.free();
    await Promise.all(opened.map((a) => a.dispose()));
  }
}

/** `migrate deploy`: applies pending migrations; returns their names. Safe to run concurrently. */
export function deployMigrations(databaseUrl: string): Promise<string[]> {
  return withEngine(databaseUrl, async (engine) => {
    const out = await engine.applyMigrations({ migrationsList: listMigrations(), filters: FILTERS });
    return out.appliedMigrationNames;
  });
}

/** `migrate dev <name>`: writes a new migration folder from the schema diff and applies it. */
export function createMigration(databaseUrl: string, name: string): Promise<string | null> {
  return withEngine(databaseUrl, async (engine) => {
    const diag = await engine.devDiagnostic({ migrationsList: listMigrations(), filters: FILTERS });
    if (diag.action.tag === "reset")
      throw new Error(`the database needs a reset first: ${diag.action.reason}`);
    await engine.applyMigrations({ migrationsList: listMigrations(), filters: FILTERS });
    const out = await engine.createMigration({
      draft: true,
      migrationName: name,
      migrationsList: listMigrations(),
      schema: { files: schemaFiles() },
      filters: FILTERS,
    });
    if (!out.migrationScript || /^-- This is an empty migration\.\s*$/.test(out.migrationScript)) return null;
    fs.mkdirSync(path.join(MIGRATIONS_DIR, out.generatedMigrationName), { recursive: true });
    fs.writeFileSync(
      path.join(MIGRATIONS_DIR, out.generatedMigrationName, `migration.${out.extension}`),
      out.migrationScript,
    );
    fs.writeFileSync(
      path.join(MIGRATIONS_DIR, "migration_lock.toml"),
      `# Please do not edit this file manually\n# It should be added in your version-control system (e.g., Git)\nprovider = "${out.connectorType}"\n`,
    );
    await engine.applyMigrations({ migrationsList: listMigrations(), filters: FILTERS });
    return out.generatedMigrationName;
  });
}

/** Schema drift: SQL that would bring the migrations folder up to schema.prisma ("" when in sync). */
export function diffMigrations(databaseUrl: string): Promise<string> {
  return withEngine(databaseUrl, async (engine) => {
    const out = await engine.diff({
      from: { tag: "migrations", ...listMigrations() },
      to: { tag: "schemaDatamodel", files: schemaFiles() },
      script: true,
      exitCode: true,
      filters: FILTERS,
    });
    return out.exitCode === 2 ? (out.stdout ?? "") : "";
  });
}

export function migrationStatus(databaseUrl: string): Promise<unknown> {
  return withEngine(databaseUrl, (engine) =>
    engine.diagnoseMigrationHistory({
      migrationsList: listMigrations(),
      optInToShadowDatabase: false,
      filters: FILTERS,
    }),
  );
}
