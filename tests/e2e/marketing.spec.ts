// Marketing sync on the production build (docs/decisions/032): signing up through the form lands on the
// plan cards as always, while the server's own job worker delivers the new Klaviyo profile and the
// "Signed Up" event to a local stand-in of Klaviyo (tests/helpers/fake-marketing.ts). The seed's
// marketingEvent call from the signed-in page answers 202 and reaches Klaviyo; another address is 403.
import { startFakeMarketing, type FakeMarketing } from "../helpers/fake-marketing";
import { expect, test } from "./support/test";
import { open, submitSignup, uniqueEmail } from "./support/app";
import { E2E_FAKE_MARKETING_PORT } from "./support/constants";

let klaviyo: FakeMarketing;
test.beforeAll(async () => {
  klaviyo = await startFakeMarketing({ port: E2E_FAKE_MARKETING_PORT });
});
test.afterAll(async () => {
  await klaviyo.close();
});

type JsonApi = { data: { attributes: Record<string, unknown> & { metric?: { data: { attributes: { name: string } } }; profile?: { data: { attributes: { email: string } } } } } };

test("sign-up: the user sees the plans; Klaviyo gets the profile and the event, without the browser asking", async ({ page }) => {
  const email = uniqueEmail("marketing");
  await open(page, "/signup");
  await submitSignup(page, email);
  await expect(page).toHaveURL(/\/choose-plan$/);
  await expect(page.getByRole("heading", { name: "Choose your plan" })).toBeVisible();

  await expect
    .poll(() => klaviyo.to("/api/profile-import").some((r) => (r.body as JsonApi).data.attributes.email === email), { timeout: 20_000 })
    .toBe(true);
  await expect
    .poll(
      () =>
        klaviyo
          .to("/api/events")
          .map((r) => (r.body as JsonApi).data.attributes)
          .some((a) => a.metric?.data.attributes.name === "Signed Up" && a.profile?.data.attributes.email === email),
      { timeout: 20_000 },
    )
    .toBe(true);
  const profile = klaviyo.to("/api/profile-import").find((r) => (r.body as JsonApi).data.attributes.email === email)!;
  expect(profile.headers.revision).toBe("2026-07-15");
  expect((profile.body as JsonApi).data.attributes.properties).toMatchObject({ status: "unactive", courseProgress: 0, discordMember: false });

  // The seed's call from the signed-in page: 202 for the user's own address, 403 for another.
  const me = await page.evaluate(async () => (await (await fetch("/api/me")).json()) as { uid: string });
  const send = (address: string) =>
    page.evaluate(
      async ({ uid, address }) =>
        (
          await fetch(`/api/klaviyo/marketingEvent?uid=${uid}`, {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: JSON.stringify({ email: address, event_name: "Viewed Pricing" }),
          })
        ).status,
      { uid: me.uid, address },
    );
  expect(await send(email)).toBe(202);
  expect(await send("someone-else@example.com")).toBe(403);
  await expect
    .poll(() => klaviyo.to("/api/events").some((r) => (r.body as JsonApi).data.attributes.metric?.data.attributes.name === "Viewed Pricing"), { timeout: 20_000 })
    .toBe(true);
});
