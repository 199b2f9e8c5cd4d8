// Flat ESLint config: TypeScript (type-aware rules off for speed), React hooks, Node scripts.
import js from "@eslint/js";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";

export default tseslint.config(
  { ignores: ["build/", "node_modules/", "public/build/", "tests/.tmp*/", "test-results/", "playwright-report/", "extensions/**/assets/", ".cache/"] },
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
);
