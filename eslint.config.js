// Flat ESLint config: TypeScript (type-aware rules off for speed), React hooks, Node scripts, and the
// house's boundaries (docs/architecture.md: which part may import which). A boundary rule names the
// rule it enforces in its message, so a newcomer who trips it learns the rule.
import js from "@eslint/js";
import { createTypeScriptImportResolver } from "eslint-import-resolver-typescript";
import importX from "eslint-plugin-import-x";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";

const ARCH = "See docs/architecture.md.";

/** `~/x/*` and the same folder reached with a relative path. */
const area = (name) => [`~/${name}`, `~/${name}/*`, `**/app/${name}`, `**/app/${name}/*`, `../${name}/*`, `../../${name}/*`];

const boundaries = [
  {
    files: ["app/routes/**"],
    patterns: [
      {
        group: [...area("integrations"), "~/db.server", "**/db.server", "@prisma/client", "@prisma/*"],
        message: `Routes are thin: they call a service or a page controller, never the database or an outside service. ${ARCH}`,
      },
    ],
  },
  {
    files: ["app/pages/**"],
    patterns: [
      {
        group: [...area("routes"), "~/db.server", "**/db.server", "@prisma/client", "@prisma/*"],
        message: `Page controllers call services; they never touch the database or import routes. ${ARCH}`,
      },
    ],
  },
  {
    files: ["app/services/**"],
    patterns: [
      {
        group: [...area("routes"), ...area("pages"), ...area("ui")],
        message: `Services know nothing of HTTP or screens: no routes, page controllers or UI. ${ARCH}`,
      },
      {
        group: ["@remix-run/*"],
        message: `Services know nothing of HTTP: no Response, redirect, cookie or FormData from @remix-run; throw an AppError (~/domain/errors) and let app/pages/ answer. ${ARCH}`,
      },
    ],
  },
  {
    files: ["app/domain/**"],
    patterns: [
      {
        // Everything except zod and other domain modules (node: built-ins included).
        regex: "^(?!zod$|~/domain/[\\w-]+$|\\./[\\w-]+$)",
        message: `Domain modules are pure rules: they import only ~/domain/* and zod. ${ARCH}`,
      },
    ],
  },
  {
    files: ["app/integrations/**"],
    patterns: [
      {
        group: [...area("services"), ...area("pages"), ...area("routes"), ...area("ui")],
        message: `Adapters to outside services never import services, pages, routes or UI; what they share lives in ~/domain. ${ARCH}`,
      },
    ],
  },
  {
    files: ["app/ui/**"],
    patterns: [
      {
        group: [...area("routes"), ...area("integrations"), "~/db.server", "**/db.server", "@prisma/client"],
        message: `UI components never import routes, adapters or the database. ${ARCH}`,
      },
      {
        group: [...area("services"), ...area("pages")],
        allowTypeImports: true,
        message: `UI components take services and page controllers only as types (import type). ${ARCH}`,
      },
    ],
  },
];

export default tseslint.config(
  { ignores: ["build/", "node_modules/", "public/build/", "tests/.tmp*/", "test-results/", "playwright-report/", "extensions/**/assets/", ".cache/", "tests/fixtures/lint/**"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ["**/*.{ts,tsx,js,mjs}"],
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    plugins: { "react-hooks": reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "no-restricted-syntax": [
        "error",
        {
          selector: "MemberExpression[object.name='process'][property.name='env']",
          message: "Read configuration through app/env.server.ts.",
        },
      ],
    },
  },
  {
    // Configuration has one home in the app; scripts, tests and tool configs may read the environment.
    files: ["app/env.server.ts", "server/**", "scripts/**", "tests/**", "bench/**", "prisma/**", "*.config.ts", "*.config.js"],
    rules: { "no-restricted-syntax": "off" },
  },
  ...boundaries.map(({ files, patterns }) => ({
    files,
    rules: { "@typescript-eslint/no-restricted-imports": ["error", { patterns }] },
  })),
  {
    // No import cycles anywhere in the app: a cycle means two parts each own half of one thing. (The lint
    // fixtures are ignored above; tests/unit/architecture-lint.test.ts lints them with ignoring turned off.)
    files: ["app/**/*.{ts,tsx}", "tests/fixtures/lint/**/*.ts"],
    plugins: { "import-x": importX },
    settings: {
      ...importX.flatConfigs.typescript.settings,
      "import-x/resolver": undefined,
      "import-x/resolver-next": [createTypeScriptImportResolver({ project: "tsconfig.json" })],
    },
    rules: { "import-x/no-cycle": ["error", { ignoreExternal: true }] },
  },
);
