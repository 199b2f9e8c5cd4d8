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
      // The whitelist: a value from a service module (not the composition root), or a part not listed.
      `import { searchResultPage } from "~/services/products.server";`,
      `import { CHECK_JOB } from "~/services/competitors.server";`,
      `import { helper } from "~/unlisted.server";`,
      `import { helper } from "../pages/http.server";`,
    ],
    allowed: [
      `import { auth } from "~/services/index.server";`,
      `import { readJson } from "~/pages/http/http.server";`,
      `import type { User } from "~/services/accounts/auth.server";`,
      `import { CHECK_JOB } from "~/domain/competitors/competitors";`,
      `import { TitledCard } from "~/ui/shared/titled-card";`,
      `import { getEnv } from "~/env.server";`,
      `import { login } from "~/shopify.server";`,
      `import type { loader } from "~/root";`,
      `import { helper } from "./error.server";`,
    ],
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
    allowed: [`import { z } from "zod";`, `import { PLANS } from "~/domain/billing/plans";`, `import { PLANS } from "./plans";`],
  },
  {
    file: "app/integrations/lint-fixture.server.ts",
    forbidden: [
      `import { billing } from "~/services/index.server";`,
      `import type { SearchEngine } from "~/services/products.server";`,
      `import { readJson } from "~/pages/http/http.server";`,
      `import { db } from "~/db.server";`,
      `import type { Db } from "~/db.server";`,
      `import { authenticate } from "~/shopify.server";`,
    ],
    allowed: [
      `import type { SearchEngine } from "~/domain/products/product-query";`,
      `import { getEnv } from "~/env.server";`,
      `import { childLogger } from "~/logger.server";`,
      `import { safeFetch } from "~/integrations/safe-fetch.server";`,
    ],
  },
  {
    file: "app/ui/lint-fixture.tsx",
    forbidden: [
      `import { loader } from "~/routes/app.settings";`,
      `import { billing } from "~/services/index.server";`,
      `import { settingsLoader } from "~/pages/accounts/settings.server";`,
      `import { getEnv } from "~/env.server";`,
      `import { childLogger } from "~/logger.server";`,
      `import { authenticate } from "~/shopify.server";`,
    ],
    allowed: [
      `import type { User } from "~/services/accounts/auth.server";`,
      `import type { SettingsLoaderData } from "~/pages/accounts/settings.server";`,
      `import { TitledCard } from "~/ui/shared/titled-card";`,
      `import type { PublicEnv } from "~/env.server";`,
      `import { planStatus } from "~/domain/billing/billing";`,
    ],
  },
  {
    file: "app/services/lint-fixture.server.ts",
    forbidden: [
      `import { readJson } from "~/pages/http/http.server";`,
      `import { TitledCard } from "~/ui/shared/titled-card";`,
      // Adapters are ports the composition root passes in: no constructor or call from a service.
      `import { createShopifyAdmin } from "~/integrations/shopify-admin.server";`,
      `import { getTokenCrypto } from "~/integrations/token-crypto.server";`,
      `import * as api from "~/integrations/shopify-billing.server";`,
      `import { authenticate } from "~/shopify.server";`,
    ],
    allowed: [
      `import { db } from "~/db.server";`,
      `import { AppError } from "~/domain/errors";`,
      `import type { ImageFetcher } from "~/integrations/image-fetch.server";`,
      `import { ImageFetchError, type ImageFetcher } from "~/integrations/image-fetch.server";`,
      `import { connectedShops } from "~/services/shopify/stores.server";`,
      `import { bindDb } from "../bind";`,
      `import type { Prisma } from "@prisma/client";`,
    ],
  },
  {
    file: "app/services/index.server.ts",
    forbidden: [`import { readJson } from "~/pages/http/http.server";`, `import { json } from "@remix-run/node";`],
    allowed: [
      `import { createShopifyAdmin } from "~/integrations/shopify-admin.server";`,
      `import { authenticate } from "~/shopify.server";`,
      `import { createBilling } from "~/services/billing.server";`,
    ],
  },
  {
    file: "app/pages/lint-fixture.server.ts",
    forbidden: [
      `import { db } from "~/db.server";`,
      `import { loader } from "~/routes/app.settings";`,
      `import { searchProducts } from "~/services/products.server";`,
      `import { createShopifyAdmin } from "~/integrations/shopify-admin.server";`,
      `import { LinkedAccountCard } from "~/ui/accounts/link-shop";`,
    ],
    allowed: [
      `import { billing } from "~/services/index.server";`,
      `import type { User } from "~/services/accounts/auth.server";`,
      `import type { SettingsData } from "~/ui/accounts/embedded-settings";`,
      `import { verifyWebhook } from "~/shopify.server";`,
      `import { childLogger } from "~/logger.server";`,
    ],
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

describe("no exceptions: the modules that once called adapters themselves take ports (decision 060)", () => {
  // Each was on a PENDING_PORTS list that let it import adapter values (or, for two adapters, the
  // database). The list is gone: the same imports in the same files fail now, and the port's type passes.
  const cases: Array<{ file: string; forbidden: string; allowed: string }> = [
    {
      file: "app/services/billing.server.ts",
      forbidden: `import { createLocalPaddle } from "~/integrations/paddle-local.server";`,
      allowed: `import type { LocalPaddle, LocalPaddleDeps } from "~/integrations/paddle-local.server";`,
    },
    {
      file: "app/services/billing/events.server.ts",
      forbidden: `import { unmarshalWebhook } from "~/integrations/paddle.server";`,
      allowed: `import { WebhookSignatureError, type PaddleNotificationReader } from "~/integrations/paddle.server";`,
    },
    {
      file: "app/services/product-pages/push.server.ts",
      forbidden: `import { createShopifyAdmin } from "~/integrations/shopify-admin.server";`,
      allowed: `import { ShopifyAdminError, type ShopifyProductWriter } from "~/integrations/shopify-admin.server";`,
    },
    {
      file: "app/services/shopify-billing/subscriptions.server.ts",
      forbidden: `import * as api from "~/integrations/shopify-billing.server";`,
      allowed: `import type { ShopifyBillingApi } from "~/integrations/shopify-billing.server";`,
    },
    {
      file: "app/services/shopify-billing/top-ups.server.ts",
      forbidden: `import { appPurchaseOneTimeCreate } from "~/integrations/shopify-billing.server";`,
      allowed: `import type { ShopifyBillingApi } from "~/integrations/shopify-billing.server";`,
    },
    {
      file: "app/services/shopify-billing/webhooks.server.ts",
      forbidden: `import { currentAppInstallation } from "~/integrations/shopify-billing.server";`,
      allowed: `import type * as api from "~/integrations/shopify-billing.server";`,
    },
    {
      file: "app/services/shopify/stores.server.ts",
      forbidden: `import { getTokenCrypto } from "~/integrations/token-crypto.server";`,
      allowed: `import type { TokenCrypto } from "~/integrations/token-crypto.server";`,
    },
    {
      file: "app/integrations/algolia.server.ts",
      forbidden: `import type { Db } from "~/db.server";`,
      allowed: `import type { AlgoliaRowSource } from "~/domain/products/algolia-rows";`,
    },
    {
      file: "app/integrations/paddle-local.server.ts",
      forbidden: `import { db } from "~/db.server";`,
      allowed: `import type { PriceIds } from "~/domain/billing/billing";`,
    },
  ];
  for (const { file, forbidden, allowed } of cases) {
    it(`${file} may not: ${forbidden}`, async () => {
      const errors = await boundaryErrors(file, `${forbidden}\nexport {};\n`);
      expect(errors.length).toBe(1);
      expect(errors[0]!.message).toContain("docs/architecture.md");
    });
    it(`${file} may: ${allowed}`, async () => {
      expect(await boundaryErrors(file, `${allowed}\nexport {};\n`)).toEqual([]);
    });
  }

  it("the configuration lists no exceptions", async () => {
    const config = (await import(path.resolve("eslint.config.js"))) as Record<string, unknown>;
    expect(config.PENDING_PORTS).toBeUndefined();
    // Every app file of a part gets exactly its part's rule: the rule for the last pending service is the services' one.
    const pending = await eslint.calculateConfigForFile(path.resolve("app/services/shopify/stores.server.ts"));
    const general = await eslint.calculateConfigForFile(path.resolve("app/services/billing/credits.server.ts"));
    expect(pending.rules?.["@typescript-eslint/no-restricted-imports"]).toEqual(general.rules?.["@typescript-eslint/no-restricted-imports"]);
  });

  it("a service may not construct an adapter", async () => {
    const errors = await boundaryErrors(
      "app/services/billing/credits.server.ts",
      `import { createLocalPaddle } from "~/integrations/paddle-local.server";\nexport {};\n`,
    );
    expect(errors.length).toBe(1);
  });
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
