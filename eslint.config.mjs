// ESLint (flat config): type-checked TypeScript rules, zero warnings (`npm run lint`).
import js from "@eslint/js";
import tseslint from "typescript-eslint";
import reactHooks from "eslint-plugin-react-hooks";
import nextPlugin from "@next/eslint-plugin-next";

const PURE_CORE = [
  "lib/sandbox/**",
  "lib/pipeline/**",
  "lib/scenarios/**",
  "lib/export/**",
  "lib/import/**",
  "lib/core/**",
  "lib/llm/**",
  "lib/rollout/**",
  "lib/api/**",
  "lib/corpus/**",
  "lib/repair/**",
  "lib/difficulty/**",
];
const REACT_CODE = ["app/**/*.ts", "app/**/*.tsx", "components/**/*.ts", "components/**/*.tsx"];

export default tseslint.config(
  {
    ignores: [
      ".next/**",
      "node_modules/**",
      "lib/db/generated/**",
      "test-results/**",
      "reports/**",
      ".data*/**",
      "next-env.d.ts",
      "bench/results/**",
    ],
  },
  js.configs.recommended,
  {
    // Plain JS (config files, the hardened sandbox host): no type information, so no type-aware rules.
    files: ["**/*.mjs", "**/*.js", "**/*.cjs"],
    ...tseslint.configs.disableTypeChecked,
    languageOptions: { parserOptions: { projectService: false, program: null } },
  },
  ...tseslint.configs.recommendedTypeChecked,
  {
    files: ["**/*.ts", "**/*.tsx", "**/*.mts"],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "@typescript-eslint/consistent-type-imports": ["error", { fixStyle: "inline-type-imports" }],
      "@typescript-eslint/no-misused-promises": ["error", { checksVoidReturn: { attributes: false } }],
    },
  },
  {
    files: ["**/*.mjs", "**/*.js", "**/*.cjs"],
    ...tseslint.configs.disableTypeChecked,
    languageOptions: {
      globals: {
        process: "readonly",
        console: "readonly",
        URL: "readonly",
        setTimeout: "readonly",
        clearTimeout: "readonly",
        setInterval: "readonly",
        clearInterval: "readonly",
        Buffer: "readonly",
        self: "readonly",
        globalThis: "readonly",
        SharedArrayBuffer: "readonly",
        Atomics: "readonly",
        WebAssembly: "readonly",
        performance: "readonly",
        TextEncoder: "readonly",
        TextDecoder: "readonly",
      },
    },
  },
  {
    // Rules of React (hooks order, effect deps, no ref writes or setState during render, pure render) and
    // Next.js pitfalls (<a> for internal pages, sync scripts, <img> without next/image...) where React runs.
    // Not lib/ or tests/: their `useTestDatabase()`-style helpers register test hooks, not React hooks.
    files: REACT_CODE,
    ...reactHooks.configs.flat.recommended,
  },
  { files: REACT_CODE, ...nextPlugin.configs["core-web-vitals"] },
  {
    // The pure core: no framework or database imports; side effects come in through deps.
    files: PURE_CORE.map((g) => `${g}/*.ts`),
    ignores: ["lib/**/server/**"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              group: [
                "next",
                "next/*",
                "react",
                "react-dom",
                "@prisma/*",
                "@/lib/db",
                "@/lib/db/*",
                "**/lib/db",
              ],
              message:
                "The pure core must not import Next, React or Prisma: pass side effects in through deps.",
            },
            {
              // Types erase at build time: the core may name the schema's enums (ExportFormat), not load them.
              group: ["**/db/generated/*"],
              allowTypeImports: true,
              message: "The pure core may import the generated Prisma enums as types only.",
            },
          ],
        },
      ],
    },
  },
  {
    // Components run in the browser (or render on the server without DB access of their own).
    files: ["components/**/*.tsx", "components/**/*.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              group: ["@/lib/db", "@/lib/db/*", "@/lib/*/server/*"],
              message: "Components get data from pages, route handlers or actions, never from the database.",
            },
            {
              group: ["@/lib/sandbox"],
              message: "The sandbox runner is server-only: components import @/lib/sandbox/sandbox.schema.",
            },
          ],
        },
      ],
    },
  },
);
