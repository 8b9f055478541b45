/**
 * Environment variables, parsed once. Every variable is documented in .env.example.
 * Bad values fail fast with a message naming the variable.
 */
import { z } from "zod";
import { EmailSchema } from "./auth/auth.schema";

const port = z.coerce.number().int().min(1).max(65535);

export const EnvSchema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("production"),
  DATABASE_URL: z.string().trim().optional(),
  ENVSTUDIO_DATA_DIR: z.string().default(".data"),
  ENVSTUDIO_PG_PORT: port.default(5433),
  HOST: z.string().trim().min(1).default("127.0.0.1"),
  PORT: port.default(3000),
  ENVSTUDIO_SEED_SAMPLES: z.enum(["0", "1"]).default("1"),
  ENVSTUDIO_START_WORKER: z.enum(["0", "1"]).optional(),
  OPENAI_BASE_URL: z.string().url().optional(),
  OPENAI_API_KEY: z.string().optional(),
  ENVSTUDIO_ADMIN_EMAIL: EmailSchema.optional(),
  ENVSTUDIO_ADMIN_PASSWORD: z.string().min(10, "must be at least 10 characters").optional(),
  ENVSTUDIO_REQUIRE_LOGIN: z.enum(["0", "1"]).optional(),
  // `envstudio serve` (lib/envserver): token (optional on a loopback bind), limits, idle reaping.
  ENVSTUDIO_SERVE_TOKEN: z.string().trim().optional().transform((v) => v || undefined),
  ENVSTUDIO_SERVE_MAX_SESSIONS: z.coerce.number().int().positive().default(64),
  ENVSTUDIO_SERVE_MAX_STEPS: z.coerce.number().int().positive().default(40),
  ENVSTUDIO_SERVE_IDLE_MS: z.coerce.number().int().min(1000, "must be at least 1000 (ms)").default(300_000),
  // Comma-separated addresses users reach the studio at (lib/auth/request-guard.ts).
  ENVSTUDIO_PUBLIC_URL: z
    .string()
    .optional()
    .refine((v) => !v || v.split(",").every((u) => !u.trim() || URL.canParse(u.trim())), "a comma-separated list of URLs like https://studio.example.org"),
  ENVSTUDIO_IMPORT_MAX_BYTES: z.union([z.literal(""), z.coerce.number().int().positive()]).optional(),
  ENVSTUDIO_SANDBOX_CALLS_PER_USER: z.union([z.literal(""), z.coerce.number().int().positive()]).optional(),
});

export type Env = z.infer<typeof EnvSchema>;

export function parseEnv(source: Record<string, string | undefined> = process.env): Env {
  const parsed = EnvSchema.safeParse(source);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`);
    throw new Error(`Invalid configuration:\n${lines.join("\n")}`);
  }
  return parsed.data;
}

/** Loopback hosts: the studio may skip login only when it listens on one of these. */
export const isLoopbackHost = (host: string) => ["127.0.0.1", "localhost", "::1", "[::1]"].includes(host);
