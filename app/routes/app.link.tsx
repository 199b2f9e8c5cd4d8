// The linking screen: the first time a shop opens the embedded app, the merchant signs in to (or creates)
// their Winning Products account here and the shop is linked to it. No site cookie is set inside the
// admin iframe: from now on the link is the shop's identity (docs/decisions/014).
import { expectedFailure } from "~/pages/http/form-errors.server";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { fieldErrors, LoginSchema, SignupSchema } from "~/domain/accounts/auth";
import { clientIp, errorHeaders, readForm } from "~/pages/http/http.server";
import { requireShop, withEmbeddedParams } from "~/pages/http/embedded-session.server";
import { auth, stores } from "~/services/index.server";
import { LinkShopScreen, type LinkMode } from "~/ui/accounts/link-shop";

export async function loader({ request }: LoaderFunctionArgs) {
  const { shop, linkedUserId } = await requireShop(request);
  if (linkedUserId) throw redirect(withEmbeddedParams(request, "/app"));
  return { shop };
}

export async function action({ request }: ActionFunctionArgs) {
  const { shop } = await requireShop(request);
  const form = await readForm(request);
  const mode: LinkMode = form.get("intent") === "signup" ? "signup" : "login";
  const values = { email: String(form.get("email") ?? "") };
  const fail = (status: number, errors: Partial<Record<string, string>>, formError: string | null, headers?: Record<string, string>) =>
    data({ mode, errors, formError, values }, { status, headers });

  const parsed = (mode === "signup" ? SignupSchema : LoginSchema).safeParse({
    email: form.get("email") ?? undefined,
    password: form.get("password") ?? undefined,
  });
  if (!parsed.success) return fail(400, fieldErrors(parsed.error), null);
  const credentials = { email: parsed.data.email, password: parsed.data.password };

  let signedIn;
  try {
    const client = { ip: clientIp(request) };
    signedIn = mode === "signup" ? await auth.signup(credentials, client) : await auth.login(credentials, client);
  } catch (error) {
    const failure = expectedFailure(error);
    return failure.details.field
      ? fail(failure.status, { email: failure.message }, null)
      : fail(failure.status, {}, failure.message, errorHeaders(failure));
  }
  try {
    await stores.linkShop({ shop, userId: signedIn.userId });
  } catch (error) {
    const failure = expectedFailure(error);
    return fail(failure.status, {}, failure.message);
  }
  throw redirect(withEmbeddedParams(request, "/app"));
}

export default function LinkStore() {
  const { shop } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  return (
    <LinkShopScreen
      shop={shop}
      mode={result?.mode ?? "login"}
      errors={result?.errors ?? {}}
      formError={result?.formError ?? null}
      email={result?.values.email ?? ""}
    />
  );
}
