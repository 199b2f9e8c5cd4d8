// A page opened from an e-mailed link reports its path to analytics without the link's token (decision 079): the
// token pages' referrer policy lets their page views through the origin check, so the schema removes the secret.
import { describe, expect, it } from "vitest";
import { PageEventSchema, withoutSecrets } from "~/domain/marketing/analytics-properties";

const TOKEN = "A".repeat(43);

describe("withoutSecrets", () => {
  it.each([
    [`/reset-password?token=${TOKEN}`, "/reset-password?token=redacted"],
    [`/verify-email?token=${TOKEN}#top`, "/verify-email?token=redacted#top"],
    [`http://localhost:3000/videos/1?u=2&expires=3&sig=${TOKEN}`, "http://localhost:3000/videos/1?u=2&expires=3&sig=redacted"],
    ["/choose-plan?plan=pro", "/choose-plan?plan=pro"],
    ["/dashboard", "/dashboard"],
    ["/search?q=a b&token=x&token=y", "/search?q=a+b&token=redacted"],
  ])("%s -> %s", (input, output) => {
    expect(withoutSecrets(input)).toBe(output);
  });

  it("applies to a page event's path and referrer", () => {
    const event = PageEventSchema.parse({
      event: "$pageview",
      path: `/verify-email?token=${TOKEN}`,
      anonymousId: "anon-12345678",
      referrer: `https://example.com/reset-password?token=${TOKEN}`,
    });
    expect(event.path).toBe("/verify-email?token=redacted");
    expect(event.referrer).toBe("https://example.com/reset-password?token=redacted");
  });
});
