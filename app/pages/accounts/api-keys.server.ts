// The API keys of the signed-in user (docs/decisions/053), for both account pages and GET/POST/DELETE
// /api/keys (the site's cookie session, or a Shopify session token inside admin). The key itself is only
// in the answer to POST; nothing here logs it.
import { z } from "zod";
import { apiAccess, MAX_KEY_NAME } from "~/domain/accounts/api-keys";
import { handleServiceErrors, readJson } from "~/pages/http/http.server";
import type { User } from "~/services/accounts/auth.server";
import { apiKeys } from "~/services/index.server";

/** What the account pages' API keys section starts from (and GET /api/keys answers). */
export async function apiKeysSection(user: User) {
  const access = apiAccess(user);
  const [keys, allowance] = await Promise.all([apiKeys.list(user.id), access.allowed ? apiKeys.allowance(user) : Promise.resolve(null)]);
  return {
    allowed: access.allowed,
    lockedReason: access.lockedReason,
    callsPerMinute: apiKeys.callsPerMinute,
    allowance,
    keys,
  };
}
export type ApiKeysSection = Awaited<ReturnType<typeof apiKeysSection>>;

const CreateBody = z.object({
  name: z
    .string({ error: "give the key a name" })
    .trim()
    .min(1, { error: "give the key a name" })
    .max(MAX_KEY_NAME, { error: `at most ${MAX_KEY_NAME} characters` }),
});

/** POST /api/keys { name }: 201 with the new key, shown this once. */
export async function createApiKeyAnswer(request: Request, user: User): Promise<Response> {
  const { name } = await readJson(request, CreateBody);
  const created = await handleServiceErrors(() => apiKeys.create(user, name));
  return Response.json(created, { status: 201, headers: { "Cache-Control": "no-store" } });
}

const KeyId = z.string().min(1).max(64);

/** DELETE /api/keys/{id}: the key, revoked at once; another user's or an unknown id is 404. */
export async function revokeApiKeyAnswer(user: User, idParam: string | undefined): Promise<Response> {
  const id = KeyId.safeParse(idParam);
  if (!id.success) return Response.json({ error: "id is not an API key id." }, { status: 400 });
  return Response.json(await handleServiceErrors(() => apiKeys.revoke(user.id, id.data)));
}
