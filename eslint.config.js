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

/**
 * Whitelists: an import is refused unless its source is one the part may import (docs/architecture.md,
 * "The parts"). `allowed` lists `~/` module prefixes (a folder ends in `/`, a single module is named whole);
 * Prisma and relative paths leaving the folder (`../`) are refused unless `prisma` / `up` says otherwise (a
 * service folder's modules reach `../bind`).
 */
const onlyFrom = (allowed, { prisma = false, up = false } = {}) => {
  const names = allowed.map((a) => (a.endsWith("/") ? a : `${a.replace(/[.]/g, "\\.")}$`));
  const refused = [...(prisma ? [] : ["@prisma/"]), ...(up ? [] : ["\\.\\./"]), `~/(?!${names.join("|")})`];
  return `^(?:${refused.join("|")})`;
};

/** A service module's values come through the composition root; its types may be imported directly. */
const serviceTypesOnly = (who) => ({
  regex: "^~/services/(?!index\\.server$)",
  allowTypeImports: true,
  message: `${who} take services from the composition root (~/services/index.server); other service modules only as types (import type). A value both need belongs in ~/domain. ${ARCH}`,
});

const boundaries = [
  {
    files: ["app/routes/**"],
    patterns: [
      {
        regex: onlyFrom(["api/", "pages/", "services/", "domain/", "ui/", "env.server", "logger.server", "shopify.server", "root"]),
        message: `Routes are thin: they import the programmatic API, page controllers, the composition root, domain rules, UI, configuration and Shopify's authenticate; never the database, an adapter or another part. ${ARCH}`,
      },
      serviceTypesOnly("Routes"),
    ],
  },
  {
    files: ["app/pages/**"],
    patterns: [
      {
        regex: onlyFrom(["pages/", "services/", "domain/", "ui/", "env.server", "logger.server", "shopify.server"]),
        message: `Page controllers call services; they never touch the database, an adapter or routes. ${ARCH}`,
      },
      serviceTypesOnly("Page controllers"),
      {
        group: [...area("ui")],
        allowTypeImports: true,
        message: `Page controllers take UI components only as types (import type). ${ARCH}`,
      },
    ],
  },
  {
    // The programmatic surface (Bearer keys, limits, the lean path, /api/v1, MCP): HTTP helpers from pages/http/,
    // the profit query parsed as the site parses it, the composition root; never the database or an adapter.
    files: ["app/api/**"],
    patterns: [
      {
        regex: onlyFrom(["api/", "pages/http/", "pages/landed-cost/api.server", "services/", "domain/", "env.server", "logger.server"]),
        message: `The API (app/api/) answers Bearer-key callers through the composition root: it imports pages' HTTP helpers, services, domain, env and logger; never the database, an adapter, routes or UI. ${ARCH}`,
      },
      serviceTypesOnly("The API"),
    ],
  },
  {
    files: ["app/services/**"],
    ignores: ["app/services/index.server.ts"],
    patterns: [
      {
        regex: onlyFrom(["services/", "domain/", "integrations/", "db.server", "env.server", "logger.server"], { prisma: true, up: true }),
        message: `Services know nothing of HTTP or screens, nor of Shopify's app configuration: no routes, page controllers, UI or shopify.server. ${ARCH}`,
      },
      {
        group: ["@remix-run/*"],
        message: `Services know nothing of HTTP: no Response, redirect, cookie or FormData from @remix-run; throw an AppError (~/domain/errors) and let app/pages/ answer. ${ARCH}`,
      },
      {
        regex: "^~/integrations/",
        allowTypeImports: true,
        allowImportNamePattern: "Error$",
        message: `Services take adapters as ports passed in by the composition root (~/services/index.server): from ~/integrations only types and the errors a port throws (import type, ...Error). ${ARCH}`,
      },
    ],
  },
  {
    files: ["app/services/index.server.ts"],
    patterns: [
      {
        regex: onlyFrom(["services/", "domain/", "integrations/", "db.server", "env.server", "logger.server", "shopify.server"], { prisma: true }),
        message: `The composition root imports what services may, plus Shopify's app configuration. ${ARCH}`,
      },
      {
        group: ["@remix-run/*"],
        message: `Services know nothing of HTTP: no @remix-run in the composition root. ${ARCH}`,
      },
    ],
  },
  {
    files: ["app/domain/**"],
    patterns: [
      {
        // Everything except zod and other domain modules (node: built-ins included).
        regex: "^(?!zod$|~/domain/[\\w-]+(?:/[\\w-]+)?$|\\.\\.?/[\\w-]+$)",
        message: `Domain modules are pure rules: they import only ~/domain/* and zod. ${ARCH}`,
      },
    ],
  },
  {
    files: ["app/integrations/**"],
    patterns: [
      {
        regex: onlyFrom(["integrations/", "domain/", "env.server", "logger.server"]),
        message: `Adapters to outside services import only ~/domain, env.server, logger.server and other adapters: never the database, services, pages, routes or UI; what they share with a service lives in ~/domain. ${ARCH}`,
      },
    ],
  },
  {
    files: ["app/ui/**"],
    patterns: [
      {
        regex: onlyFrom(["ui/", "domain/", "services/", "pages/", "env.server"]),
        message: `UI components import only ~/ui and ~/domain: never routes, adapters, the database or server modules. ${ARCH}`,
      },
      {
        regex: "^~/(?:services/|pages/|env\\.server$)",
        allowTypeImports: true,
        message: `UI components take services, page controllers and configuration only as types (import type). ${ARCH}`,
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
  ...boundaries.map(({ files, ignores, patterns }) => ({
    files,
    ...(ignores ? { ignores } : {}),
    rules: { "@typescript-eslint/no-restricted-imports": ["error", { patterns }] },
  })),
  {
    // No import cycles anywhere in the app: a cycle means two parts each own half of one thing. (The lint
    // fixtures are ignored above; tests/unit/architecture/architecture-lint.test.ts lints them with ignoring turned off.)
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
