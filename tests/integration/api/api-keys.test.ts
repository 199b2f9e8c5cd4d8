// API keys (decision 053) on a real migrated database: GET/POST/DELETE /api/keys with the site's cookie, paid
// states only, the key shown once and stored only as a hash, revocation at once, another user's id 404, and the
// per-key / per-user minute limits and monthly allowance over a virtual clock.
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { db } from "~/db.server";
import { loader as keysList, action as keysAction } from "~/routes/api.keys";
import { action as keyAction } from "~/routes/api.keys.$id";
import { apiKeys } from "~/services/index.server";
import { hashApiKey } from "~/services/api-access/api-keys.server";
import { call } from "../../helpers/routes";
import { createSignedInUser } from "../../helpers/site-users";

let paid: Awaited<ReturnType<typeof createSignedInUser>>;
let other: Awaited<ReturnType<typeof createSignedInUser>>;
let free: Awaited<ReturnType<typeof createSignedInUser>>;

beforeAll(async () => {
  paid = await createSignedInUser({ userSubscribed: "yes" });
  other = await createSignedInUser({ userSubscribed: "yes", trialing: true });
  free = await createSignedInUser();
});

afterEach(() => {
  vi.useRealTimers();
});

const create = (cookie: string, name: unknown) => call(keysAction, "/api/keys", { method: "POST", cookie, json: { name } });

describe("/api/keys", () => {
  it("creates a key shown once, kept only as its hash with a visible prefix, and lists it without the key", async () => {
    const res = await create(paid.cookie, "Claude Desktop");
    expect(res.status, await res.clone().text()).toBe(201);
    const created = (await res.json()) as { id: string; key: string; prefix: string; name: string; scopes: string[] };
    expect(created.key).toMatch(/^wpk_[A-Za-z0-9]{32}$/);
    expect(created.prefix).toBe(created.key.slice(0, 12));
    expect(created.scopes).toEqual(["read"]);

    const row = await db.apiKey.findUniqueOrThrow({ where: { id: created.id } });
    expect(row.keyHash).toBe(hashApiKey(created.key));
    expect(JSON.stringify(row)).not.toContain(created.key);

    const list = await call(keysList, "/api/keys", { cookie: paid.cookie });
    const text = await list.text();
    expect(text).not.toContain(created.key);
    const body = JSON.parse(text) as { keys: { id: string; name: string; prefix: string; lastUsedAt: string | null }[]; allowance: { used: number; limit: number } };
    expect(body.keys.find((k) => k.id === created.id)).toMatchObject({ name: "Claude Desktop", prefix: created.prefix, lastUsedAt: null });
    expect(body.allowance).toMatchObject({ used: 0, limit: 50_000 });
  });

  it("refuses a free account (403 with a sentence), a missing name (400) and anonymous callers (401)", async () => {
    const refused = await create(free.cookie, "mine");
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as { error: string }).error).toMatch(/start your free trial/);
    expect(await db.apiKey.count({ where: { userId: free.id } })).toBe(0);

    const noName = await create(paid.cookie, "   ");
    expect(noName.status).toBe(400);
    expect(((await noName.json()) as { error: string }).error).toMatch(/^name: give the key a name/);

    expect((await call(keysList, "/api/keys")).status).toBe(401);
    expect((await call(keysAction, "/api/keys", { method: "POST", json: { name: "x" } })).status).toBe(401);
  });

  it("revokes a key at once; another user's key is 404 and stays active", async () => {
    const created = (await (await create(paid.cookie, "to revoke")).json()) as { id: string; key: string };
    const caller = await apiKeys.authenticate(created.key, "read");
    expect(caller.user.id).toBe(paid.id);

    const notYours = await call(keyAction, `/api/keys/${created.id}`, { method: "DELETE", cookie: other.cookie, params: { id: created.id } });
    expect(notYours.status).toBe(404);
    await expect(apiKeys.authenticate(created.key, "read")).resolves.toMatchObject({ keyId: created.id });

    const res = await call(keyAction, `/api/keys/${created.id}`, { method: "DELETE", cookie: paid.cookie, params: { id: created.id } });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { revokedAt: string | null }).revokedAt).not.toBeNull();
    await expect(apiKeys.authenticate(created.key, "read")).rejects.toMatchObject({ status: 401, message: expect.stringMatching(/revoked/) });
  });

  it("records when a key was last used", async () => {
    const created = (await (await create(paid.cookie, "used")).json()) as { id: string; key: string };
    await apiKeys.authenticate(created.key, "read");
    const row = await db.apiKey.findUniqueOrThrow({ where: { id: created.id }, select: { lastUsedAt: true } });
    expect(row.lastUsedAt).not.toBeNull();
  });

  it("holds a key and its user to 120 calls a minute, then lets calls through in the next minute (virtual clock)", async () => {
    const user = await createSignedInUser({ userSubscribed: "yes" });
    const a = (await (await create(user.cookie, "a")).json()) as { key: string };
    const b = (await (await create(user.cookie, "b")).json()) as { key: string };
    vi.useFakeTimers({ toFake: ["Date"], now: new Date("2026-11-26T12:00:00Z") });
    const callerA = await apiKeys.authenticate(a.key, "read");
    const callerB = await apiKeys.authenticate(b.key, "read");
    for (let i = 0; i < 60; i++) await apiKeys.countCall(callerA);
    let last = await apiKeys.countCall(callerB);
    for (let i = 0; i < 58; i++) last = await apiKeys.countCall(callerB);
    // 119 calls by the user: one left, whichever key.
    expect(last.minute).toMatchObject({ limit: 120, remaining: 1 });
    await apiKeys.countCall(callerA);
    const over = await apiKeys.countCall(callerB).catch((e: unknown) => e);
    expect(over).toMatchObject({ status: 429, details: { retryAfterSeconds: expect.any(Number) } });
    expect((over as Error).message).toMatch(/over 120 a minute\. Try again in 1 minute\./);

    vi.setSystemTime(new Date("2026-11-26T12:01:01Z"));
    await expect(apiKeys.countCall(callerA)).resolves.toMatchObject({ minute: { remaining: 119 } });
    // The monthly allowance counted every call let through, and not the refused one.
    expect(await apiKeys.allowance(callerA.user)).toMatchObject({ used: 121, limit: 50_000 });
  });
});
