// The community with an invite link configured (no OAuth keys): the dashboard card, and the Discord
// prompts through GET/POST /api/community/popup, with popupTriggered and DiscordProfile as stored.
import { describe, expect, it, vi } from "vitest";

const INVITE = vi.hoisted(() => {
  const invite = "https://discord.gg/winning-test";
  process.env.DISCORD_INVITE_URL = invite;
  return invite;
});

import { db } from "~/db.server";
import { loader as communityLoader } from "~/routes/api.community";
import { action as joinAction } from "~/routes/api.community.join";
import { action as popupAction, loader as popupLoader } from "~/routes/api.community.popup";
import { loader as dashboardLoader } from "~/routes/dashboard._index";
import { loader as discordStart } from "~/routes/auth.discord";
import { call } from "../../helpers/routes";
import { createSignedInUser } from "../../helpers/site-users";

const DAY = 24 * 3600_000;
const daysAgo = (n: number) => new Date(Date.now() - n * DAY);

const getPopup = async (cookie: string) => (await (await call(popupLoader, "/api/community/popup", { cookie })).json()).popup;
const post = (cookie: string | null, json: unknown) => call(popupAction, "/api/community/popup", { method: "POST", cookie, json });

describe("community API with an invite link", () => {
  it("answers 401 to anonymous callers", async () => {
    expect((await call(communityLoader, "/api/community")).status).toBe(401);
    expect((await call(popupLoader, "/api/community/popup")).status).toBe(401);
    expect((await post(null, { popup: 1, action: "shown" })).status).toBe(401);
    expect((await call(joinAction, "/api/community/join", { method: "POST" })).status).toBe(401);
  });

  it("shows a brand-new user the invite link and no prompt on their first day", async () => {
    const user = await createSignedInUser();
    const body = await (await call(communityLoader, "/api/community", { cookie: user.cookie })).json();
    expect(body).toEqual({
      inviteUrl: INVITE,
      notConfiguredMessage: null,
      joined: false,
      discordUserName: null,
      oauthEnabled: false,
      popup: null,
    });
  });

  it("shows prompt 1 from day 2, records it once, and nothing more that day", async () => {
    const user = await createSignedInUser({ createdAt: daysAgo(2) });
    const popup = await getPopup(user.cookie);
    expect(popup).toMatchObject({ popup: 1, key: "welcome", last: false });
    expect(popup.title).toBeTruthy();

    const res = await post(user.cookie, { popup: 1, action: "shown" });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ ok: true, finished: false, joined: false });

    const stored = await db.discordProfile.findUniqueOrThrow({ where: { userId: user.id } });
    expect(stored).toMatchObject({ discordPopup1: true, discordPopup2: false, joined: false, dismissedLast: false });
    expect(Math.abs(stored.lastPopupDate!.getTime() - Date.now())).toBeLessThan(60_000);
    expect((await db.user.findUniqueOrThrow({ where: { id: user.id }, select: { popupTriggered: true } })).popupTriggered).toBe(true);

    // Same day: nothing due, and a client cannot force prompt 2.
    expect(await getPopup(user.cookie)).toBeNull();
    const forced = await post(user.cookie, { popup: 2, action: "shown" });
    expect(forced.status).toBe(409);
    expect(await forced.json()).toEqual({ error: "Community prompt 2 is not due now." });
  });

  it("shows the next prompt a day later (simulated by moving the last prompt back)", async () => {
    const user = await createSignedInUser({ createdAt: daysAgo(4) });
    await post(user.cookie, { popup: 1, action: "shown" });
    await db.discordProfile.update({ where: { userId: user.id }, data: { lastPopupDate: daysAgo(1.01) } });
    expect(await getPopup(user.cookie)).toMatchObject({ popup: 2 });
  });

  it("never shows a prompt again after the user joined through the card", async () => {
    const user = await createSignedInUser({ createdAt: daysAgo(40) });
    const res = await call(joinAction, "/api/community/join", { method: "POST", cookie: user.cookie });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ joined: true, inviteUrl: INVITE });
    expect(await getPopup(user.cookie)).toBeNull();
    expect((await (await call(communityLoader, "/api/community", { cookie: user.cookie })).json()).joined).toBe(true);
  });

  it("never again after the fifth prompt is dismissed", async () => {
    const user = await createSignedInUser({ createdAt: daysAgo(31) });
    await db.discordProfile.create({
      data: { userId: user.id, discordPopup1: true, discordPopup2: true, discordPopup3: true, discordPopup4: true, lastPopupDate: daysAgo(10) },
    });
    expect(await getPopup(user.cookie)).toMatchObject({ popup: 5, key: "last-call", last: true });
    const res = await post(user.cookie, { popup: 5, action: "dismissed" });
    expect(await res.json()).toEqual({ ok: true, finished: true, joined: false });
    await db.discordProfile.update({ where: { userId: user.id }, data: { lastPopupDate: daysAgo(100) } });
    expect(await getPopup(user.cookie)).toBeNull();
    expect(await db.discordProfile.findUniqueOrThrow({ where: { userId: user.id }, select: { dismissedLast: true, discordPopup5: true } })).toEqual({
      dismissedLast: true,
      discordPopup5: true,
    });
  });

  it("joining from a prompt ends the prompts", async () => {
    const user = await createSignedInUser({ createdAt: daysAgo(2) });
    await post(user.cookie, { popup: 1, action: "shown" });
    const res = await post(user.cookie, { popup: 1, action: "joined" });
    expect(await res.json()).toEqual({ ok: true, finished: true, joined: true });
  });

  it.each([
    [{ popup: 6, action: "shown" }, /^popup: /],
    [{ popup: "1", action: "shown" }, /^popup: must be a number from 1 to 5$/],
    [{ popup: 1, action: "clicked" }, /^action: must be one of shown, joined, dismissed$/],
    [{}, /^popup: /],
  ])("answers 400 naming the field for %j", async (json, message) => {
    const user = await createSignedInUser();
    const res = await post(user.cookie, json);
    expect(res.status).toBe(400);
    expect((await res.json()).error).toMatch(message);
  });

  it("puts the invite, the card data and the due prompt on the dashboard", async () => {
    const user = await createSignedInUser({ createdAt: daysAgo(2) });
    const data = await (await call(dashboardLoader, "/dashboard?location=dashboard", { cookie: user.cookie })).json();
    expect(data.community).toMatchObject({ inviteUrl: INVITE, oauthEnabled: false, popup: { popup: 1 } });
  });

  it("without OAuth keys, /auth/discord leads back to the dashboard: the link only", async () => {
    const user = await createSignedInUser();
    const res = await call(discordStart, "/auth/discord", { cookie: user.cookie });
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/dashboard?location=dashboard&discord=disabled#community");
  });
});
