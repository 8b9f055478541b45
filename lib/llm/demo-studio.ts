import { readEnv } from "../env";

/** This studio was started as the offline demo (`npm start -- --demo`, ENVSTUDIO_DEMO=1). */
export const isDemoStudio = (source: Record<string, string | undefined> = process.env) =>
  readEnv("ENVSTUDIO_DEMO", source) === "1";
