// The house's boundaries (docs/architecture.md) are kept by `npm run lint`: these tests lint small
// files placed, by path, in each part of the app and check that a forbidden import fails and an
// allowed one passes, through ESLint's own API and the project's eslint.config.js.
import path from "node:path";
import { ESLint } from "eslint";
import { describe, expect, it } from "vitest";

const eslint = new ESLint({ cwd: process.cwd() });

async function boundaryErrors(filePath: string, code: string) {
  const [result] = await eslint.lintText(code, { filePath: path.resolve(filePath) });
  return (result?.messages ?? []).filter((m) => m.ruleId === "@typescript-eslint/no-restricted-imports");
}

const cases: Array<{ file: string; forbidden: string[]; allowed: string[] }> = [
  {
    file: "app/routes/lint-fixture.tsx",
    forbidden: [
      `import { db } from "~/db.server";`,
      `import { Prisma } from "@prisma/client";`,
      `import { createPaddleApi } from "~/integrations/paddle.server";`,
      `import { db } from "../db.server";`,
    ],
    allowed: [`import { auth } from "~/services/index.server";`, `import { readJson } from "~/pages/http.server";`],
  },
  {
    file: "app/domain/lint-fixture.ts",
    forbidden: [
      `import { db } from "~/db.server";`,
      `import { createHash } from "node:crypto";`,
      `import { auth } from "~/services/index.server";`,
      `import React from "react";`,
      `import { x } from "../services/x.server";`,
    ],
    allowed: [`import { z } from "zod";`, `import { PLANS } from "~/domain/plans";`, `import { PLANS } from "./plans";`],
  },
  {
    file: "app/integrations/lint-fixture.server.ts",
    forbidden: [
      `import { billing } from "~/services/index.server";`,
      `import type { SearchEngine } from "~/services/products.server";`,
      `import { readJson } from "~/pages/http.server";`,
    ],
    allowed: [`import type { SearchEngine } from "~/domain/product-query";`, `import { getEnv } from "~/env.server";`],
  },
  {
    file: "app/ui/lint-fixture.tsx",
    forbidden: [
      `import { loader } from "~/routes/app.settings";`,
      `import { billing } from "~/services/index.server";`,
      `import { settingsLoader } from "~/pages/settings-page.server";`,
    ],
    allowed: [
      `import type { User } from "~/services/auth.server";`,
      `import type { SettingsLoaderData } from "~/pages/settings-page.server";`,
      `import { TitledCard } from "~/ui/titled-card";`,
    ],
  },
  {
    file: "app/services/lint-fixture.server.ts",
    forbidden: [`import { readJson } from "~/pages/http.server";`, `import { TitledCard } from "~/ui/titled-card";`],
    allowed: [`import { db } from "~/db.server";`, `import { AppError } from "~/domain/errors";`],
  },
  {
    file: "app/pages/lint-fixture.server.ts",
    forbidden: [`import { db } from "~/db.server";`, `import { loader } from "~/routes/app.settings";`],
    allowed: [`import { billing } from "~/services/index.server";`],
  },
];

describe("import boundaries", () => {
  for (const { file, forbidden, allowed } of cases) {
    const part = file.split("/")[1];
    for (const line of forbidden) {
      it(`${part} may not: ${line}`, async () => {
        const errors = await boundaryErrors(file, `${line}\nexport {};\n`);
        expect(errors.length, `expected a boundary error for ${line}`).toBe(1);
        expect(errors[0]!.message).toContain("docs/architecture.md");
      });
    }
    for (const line of allowed) {
      it(`${part} may: ${line}`, async () => {
        expect(await boundaryErrors(file, `${line}\nexport {};\n`)).toEqual([]);
      });
    }
  }
});

describe("import cycles", () => {
  it("the app's files are checked for cycles", async () => {
    const config = await eslint.calculateConfigForFile(path.resolve("app/services/products.server.ts"));
    expect(config.rules?.["import-x/no-cycle"]?.[0]).toBe(2);
  });

  it("a cycle between two files fails the lint", async () => {
    // The fixture folder is outside app/ and ignored by `npm run lint`; the same rule is applied to it here.
    const cycleLint = new ESLint({ cwd: process.cwd(), ignore: false });
    const [result] = await cycleLint.lintFiles([path.resolve("tests/fixtures/lint/cycle/a.ts")]);
    expect(result!.messages.map((m) => m.ruleId)).toContain("import-x/no-cycle");
  });
});
