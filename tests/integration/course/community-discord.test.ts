// Connecting a Discord account through OAuth2, against a local server on 127.0.0.1 that speaks
// Discord's documented shapes (POST /api/v10/oauth2/token, GET /api/v10/users/@me). Checks what we
// send (Basic client credentials, grant, code, redirect_uri, Bearer token) and what we store.
import { describe, expect, it, vi } from "vitest";

interface Seen {
  method: string;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

const fake = await vi.hoisted(async () => {
  const { createServer } = await import("node:http");
  const seen: Seen[] = [];
  const users: Record<string, { id: string; username: string; global_name: string | null; discriminator: string }> = {
    "tok-jane": { id: "80351110224678912", username: "seller_jane", global_name: "Jane", discriminator: "0" },
    "tok-legacy": { id: "41771983423143937", username: "oldtimer", global_name: null, discriminator: "1234" },
    "tok-prompted": { id: "55555555555555555", username: "prompted_pat", global_name: null, discriminator: "0" },
    "tok-shared": { id: "66666666666666666", username: "shared_sam", global_name: null, discriminator: "0" },
  };
  const codes: Record<string, string> = {
    "code-jane": "tok-jane",
    "code-legacy": "tok-legacy",
    "code-prompted": "tok-prompted",
    "code-shared-1": "tok-shared",
    "code-shared-2": "tok-shared",
  };
  const server = createServer((req, res) => {
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      seen.push({ method: req.method ?? "", path: req.url ?? "", headers: req.headers, body });
      const json = (status: number, value: unknown) => {
        res.writeHead(status, { "content-type": "application/json" });
        res.end(JSON.stringify(value));
      };
      if (req.method === "POST" && req.url === "/api/v10/oauth2/token") {
        const code = new URLSearchParams(body).get("code") ?? "";
        const token = codes[code];
        if (!token) return json(400, { error: "invalid_grant", error_description: 'Invalid "code" in request.' });
        return json(200, { access_token: token, token_type: "Bearer", expires_in: 604800, refresh_token: "refresh-x", scope: "identify" });
      }
      if (req.method === "GET" && req.url === "/api/v10/users/@me") {
        const token = String(req.headers.authorization ?? "").replace(/^Bearer /, "");
        const user = users[token];
        return user ? json(200, { ...user, avatar: null }) : json(401, { message: "401: Unauthorized", code: 0 });
      }
      if (req.url === "/slow/api/v10/users/@me") return; // never answers
      if (req.url === "/html/api/v10/users/@me") {
        res.writeHead(502, { "content-type": "text/html" });
        return res.end("<html>Bad gateway</html>");
      }
      json(404, { message: "404: Not Found" });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  const baseUrl = `http://127.0.0.1:${port}`;
  process.env.DISCORD_INVITE_URL = "https://discord.gg/winning-test";
  process.env.DISCORD_CLIENT_ID = "1234567890";
  process.env.DISCORD_CLIENT_SECRET = "discord-test-secret";
  process.env.DISCORD_API_BASE_URL = baseUrl;
  return { seen, baseUrl, server };
});

import { afterAll } from "vitest";
import { db } from "~/db.server";
import { createDiscordOAuth, DiscordError } from "~/integrations/discord.server";
import { loader as communityLoader } from "~/routes/api.community";
import { action as discordDisconnect, loader as discordStart } from "~/routes/auth.discord";
import { loader as discordCallback } from "~/routes/auth.discord.callback";
import { call, cookieFrom } from "../../helpers/routes";
import { TEST_APP_URL } from "../../helpers/test-env";
import { createSignedInUser } from "../../helpers/site-users";

afterAll(() => {
  fake.server.closeAllConnections();
  fake.server.close();
});

const REDIRECT_URI = `${TEST_APP_URL}/auth/discord/callback`;

async function start(cookie: string) {
  const res = await call(discordStart, "/auth/discord", { cookie });
  expect(res.status).toBe(302);
  const location = new URL(res.headers.get("location")!);
  return { location, stateCookie: cookieFrom(res), setCookie: res.headers.get("set-cookie")!, state: location.searchParams.get("state")! };
}

function callback(query: Record<string, string>, cookie: string) {
  return call(discordCallback, `/auth/discord/callback?${new URLSearchParams(query)}`, { cookie });
}

const outcome = (res: Response) => new URL(res.headers.get("location")!, TEST_APP_URL).searchParams.get("discord");
const tokenRequests = () => fake.seen.filter((s) => s.path === "/api/v10/oauth2/token");

describe("Discord OAuth connect", () => {
  it("sends the user to Discord's authorize page with our client id, scope, callback and a state cookie", async () => {
    const user = await createSignedInUser();
    const { location, setCookie, state } = await start(user.cookie);
    expect(`${location.origin}${location.pathname}`).toBe(`${fake.baseUrl}/oauth2/authorize`);
    expect(Object.fromEntries(location.searchParams)).toEqual({
      response_type: "code",
      client_id: "1234567890",
      scope: "identify",
      redirect_uri: REDIRECT_URI,
      state,
      prompt: "consent",
    });
    expect(state).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(setCookie).toMatch(/^__discord_oauth=/);
    expect(setCookie).toMatch(/Path=\/auth\/discord/);
    expect(setCookie).toMatch(/HttpOnly/);
    expect(setCookie).toMatch(/SameSite=Lax/);
    expect(setCookie).toMatch(/Max-Age=600/);
  });

  it("exchanges the code, reads /users/@me and stores discordId and discordUserName", async () => {
    const user = await createSignedInUser();
    const { state, stateCookie } = await start(user.cookie);
    const before = fake.seen.length;
    const res = await callback({ code: "code-jane", state }, `${user.cookie}; ${stateCookie}`);
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/dashboard?location=dashboard&discord=connected#community");
    expect(res.headers.get("set-cookie")).toMatch(/^__discord_oauth=;.*Max-Age=0/);

    const [token, me] = fake.seen.slice(before);
    expect(token.method).toBe("POST");
    expect(token.headers["content-type"]).toBe("application/x-www-form-urlencoded");
    expect(token.headers.authorization).toBe(`Basic ${Buffer.from("1234567890:discord-test-secret").toString("base64")}`);
    expect(Object.fromEntries(new URLSearchParams(token.body))).toEqual({
      grant_type: "authorization_code",
      code: "code-jane",
      redirect_uri: REDIRECT_URI,
    });
    expect(me).toMatchObject({ method: "GET", path: "/api/v10/users/@me" });
    expect(me.headers.authorization).toBe("Bearer tok-jane");

    const profile = await db.discordProfile.findUniqueOrThrow({ where: { userId: user.id }, select: { discordId: true, discordUserName: true } });
    expect(profile).toEqual({ discordId: "80351110224678912", discordUserName: "seller_jane" });
    const overview = await (await call(communityLoader, "/api/community", { cookie: user.cookie })).json();
    expect(overview).toMatchObject({ oauthEnabled: true, discordUserName: "seller_jane" });
  });

  it("keeps a legacy discriminator in the user name", async () => {
    const user = await createSignedInUser();
    const { state, stateCookie } = await start(user.cookie);
    await callback({ code: "code-legacy", state }, `${user.cookie}; ${stateCookie}`);
    const profile = await db.discordProfile.findUniqueOrThrow({ where: { userId: user.id }, select: { discordUserName: true } });
    expect(profile.discordUserName).toBe("oldtimer#1234");
  });

  it("stops the prompts once a Discord account is connected", async () => {
    const user = await createSignedInUser({ createdAt: new Date(Date.now() - 40 * 24 * 3600_000) });
    expect((await (await call(communityLoader, "/api/community", { cookie: user.cookie })).json()).popup).not.toBeNull();
    const { state, stateCookie } = await start(user.cookie);
    expect(outcome(await callback({ code: "code-prompted", state }, `${user.cookie}; ${stateCookie}`))).toBe("connected");
    const overview = await (await call(communityLoader, "/api/community", { cookie: user.cookie })).json();
    expect(overview).toMatchObject({ discordUserName: "prompted_pat", popup: null });
  });

  it("refuses a callback whose state does not match the cookie, without calling Discord", async () => {
    const user = await createSignedInUser();
    const { stateCookie } = await start(user.cookie);
    const before = tokenRequests().length;
    const res = await callback({ code: "code-jane", state: "forged-state-forged-state-forged1" }, `${user.cookie}; ${stateCookie}`);
    expect(outcome(res)).toBe("state");
    expect(tokenRequests().length).toBe(before);
    expect(await db.discordProfile.findUnique({ where: { userId: user.id } })).toBeNull();
  });

  it("refuses a callback without the state cookie (started in another browser)", async () => {
    const user = await createSignedInUser();
    const { state } = await start(user.cookie);
    expect(outcome(await callback({ code: "code-jane", state }, user.cookie))).toBe("state");
  });

  it("refuses a state started by another user", async () => {
    const alice = await createSignedInUser();
    const mallory = await createSignedInUser();
    const { state, stateCookie } = await start(mallory.cookie);
    expect(outcome(await callback({ code: "code-jane", state }, `${alice.cookie}; ${stateCookie}`))).toBe("state");
    expect(await db.discordProfile.findUnique({ where: { userId: alice.id } })).toBeNull();
  });

  it("says denied when the user cancels on Discord", async () => {
    const user = await createSignedInUser();
    const { state, stateCookie } = await start(user.cookie);
    const res = await callback({ error: "access_denied", error_description: "The resource owner or authorization server denied the request", state }, `${user.cookie}; ${stateCookie}`);
    expect(outcome(res)).toBe("denied");
  });

  it("says failed when Discord refuses the code, and stores nothing", async () => {
    const user = await createSignedInUser();
    const { state, stateCookie } = await start(user.cookie);
    const res = await callback({ code: "expired-code", state }, `${user.cookie}; ${stateCookie}`);
    expect(outcome(res)).toBe("failed");
    expect(await db.discordProfile.findUnique({ where: { userId: user.id } })).toBeNull();
  });

  it("refuses a Discord account already connected to another user", async () => {
    const first = await createSignedInUser();
    const second = await createSignedInUser();
    const one = await start(first.cookie);
    expect(outcome(await callback({ code: "code-shared-1", state: one.state }, `${first.cookie}; ${one.stateCookie}`))).toBe("connected");
    const two = await start(second.cookie);
    expect(outcome(await callback({ code: "code-shared-2", state: two.state }, `${second.cookie}; ${two.stateCookie}`))).toBe("taken");
    expect(await db.discordProfile.findUnique({ where: { userId: second.id } })).toBeNull();
  });

  it("disconnects on POST /auth/discord", async () => {
    const user = await createSignedInUser();
    await db.discordProfile.create({ data: { userId: user.id, discordId: "999999999999999999", discordUserName: "to_remove" } });
    const res = await call(discordDisconnect, "/auth/discord", { method: "POST", cookie: user.cookie });
    expect(res.headers.get("location")).toBe("/dashboard?location=dashboard&discord=disconnected#community");
    expect(await db.discordProfile.findUniqueOrThrow({ where: { userId: user.id }, select: { discordId: true, discordUserName: true } })).toEqual({
      discordId: null,
      discordUserName: null,
    });
  });

  it("sends an anonymous visitor to log in", async () => {
    const res = await call(discordStart, "/auth/discord");
    expect(res.headers.get("location")).toBe("/?redirectTo=%2Fauth%2Fdiscord");
  });
});

describe("the Discord adapter on its own", () => {
  const adapter = (baseUrl: string, timeoutMs = 2000) =>
    createDiscordOAuth({ clientId: "1234567890", clientSecret: "s", redirectUri: REDIRECT_URI, baseUrl, timeoutMs });

  it("reports Discord's own error description", async () => {
    await expect(adapter(fake.baseUrl).exchangeCode("nope")).rejects.toThrow('Discord refused the token request: Invalid "code" in request.');
  });

  it("reports an invalid token on /users/@me", async () => {
    await expect(adapter(fake.baseUrl).fetchUser("wrong")).rejects.toThrow("Discord refused the user request: 401: Unauthorized");
  });

  it("reports an answer that is not JSON", async () => {
    const error = await adapter(`${fake.baseUrl}/html`).fetchUser("tok-jane").catch((e) => e);
    expect(error).toBeInstanceOf(DiscordError);
    expect(error.message).toBe("Discord answered the user request with something that is not JSON.");
    expect(error.status).toBe(502);
  });

  it("gives up after its timeout", async () => {
    const error = await adapter(`${fake.baseUrl}/slow`, 200).fetchUser("tok-jane").catch((e) => e);
    expect(error).toBeInstanceOf(DiscordError);
    expect(error.message).toMatch(/^Discord did not answer the user request/);
  });

  it("strips a trailing slash from the base URL", () => {
    expect(adapter(`${fake.baseUrl}/`).authorizeUrl("s").startsWith(`${fake.baseUrl}/oauth2/authorize?`)).toBe(true);
  });
});
