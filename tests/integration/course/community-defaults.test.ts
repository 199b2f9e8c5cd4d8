// The community with nothing configured (no DISCORD_* variables): no link, a sentence saying so, no
// prompts however old the account, and no OAuth.
import { describe, expect, it } from "vitest";
import { loader as communityLoader } from "~/routes/api.community";
import { action as joinAction } from "~/routes/api.community.join";
import { action as popupAction, loader as popupLoader } from "~/routes/api.community.popup";
import { call } from "../../helpers/routes";
import { createSignedInUser } from "../../helpers/site-users";

describe("community without an invite link", () => {
  it("says, in a seller's words, that there is no invite yet, and shows no prompt, even to an old account", async () => {
    const user = await createSignedInUser({ createdAt: new Date(Date.now() - 90 * 24 * 3600_000) });
    const body = await (await call(communityLoader, "/api/community", { cookie: user.cookie })).json();
    expect(body).toEqual({
      inviteUrl: null,
      notConfiguredMessage: "The community's invite is not available yet: it will appear here as soon as it is.",
      joined: false,
      discordUserName: null,
      oauthEnabled: false,
      popup: null,
    });
    // Issue 35: the card speaks to a seller, not about the operator's settings.
    expect(body.notConfiguredMessage).not.toMatch(/server|configur|operator|setting|variable/i);
    expect((await (await call(popupLoader, "/api/community/popup", { cookie: user.cookie })).json()).popup).toBeNull();
    const shown = await call(popupAction, "/api/community/popup", { method: "POST", cookie: user.cookie, json: { popup: 1, action: "shown" } });
    expect(shown.status).toBe(409);
  });

  it("has nothing to join", async () => {
    const user = await createSignedInUser();
    const res = await call(joinAction, "/api/community/join", { method: "POST", cookie: user.cookie });
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ error: "The community's invite is not available yet: it will appear here as soon as it is." });
  });
});
