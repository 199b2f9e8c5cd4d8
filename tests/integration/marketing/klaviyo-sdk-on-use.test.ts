// Klaviyo's SDK (klaviyo-api, 38 MB of generated client, about a second to load) is loaded on the first Klaviyo
// call, not when the marketing adapters are imported: every server start, CLI and test that never calls Klaviyo
// (every one without KLAVIYO_API_KEY) no longer pays for it. The first call still goes out as the SDK sends it.
import { createRequire } from "node:module";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createKlaviyo, createMarketingSenders } from "~/integrations/marketing.server";
import { startFakeMarketing, KLAVIYO_REVISION, type FakeMarketing } from "../../helpers/fake-marketing";

const sdkLoaded = () => Object.keys(createRequire(import.meta.url).cache).some((file) => file.includes("/node_modules/klaviyo-api/"));

let fake: FakeMarketing;
beforeAll(async () => {
  fake = await startFakeMarketing();
});
afterAll(async () => {
  await fake.close();
});

describe("Klaviyo's SDK", () => {
  it("is not loaded by importing the adapters or making the Klaviyo sender, and is by its first call", async () => {
    const senders = createMarketingSenders({
      KLAVIYO_API_KEY: "pk_test_on_use",
      KLAVIYO_BASE_URL: fake.url,
      POSTHOG_HOST: fake.url,
      HYROS_BASE_URL: fake.url,
      ANYTRACK_INTEGRATION: "custom",
      ANYTRACK_BASE_URL: fake.url,
    });
    const klaviyo = createKlaviyo({ apiKey: "pk_test_on_use", baseUrl: fake.url });
    expect(senders.klaviyo).toBeDefined();
    expect(sdkLoaded()).toBe(false);

    const sent = await klaviyo.upsertProfile({ email: "first-call@example.com", externalId: "u-1", properties: {} });
    expect(sent).toMatchObject({ status: 201 });
    expect(sent.profileId).toMatch(/^01PROFILE/);
    expect(sdkLoaded()).toBe(true);
    const [request] = fake.to("/api/profile-import");
    expect(request.headers.revision).toBe(KLAVIYO_REVISION);
    expect(request.headers.authorization).toBe("Klaviyo-API-Key pk_test_on_use");
  });
});
