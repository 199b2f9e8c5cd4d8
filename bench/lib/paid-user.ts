// A signed-in seller with a paid plan for the benches that drive a running server (load, pages): signed up
// through the form, as a browser would, then given a paid subscription in its database, as tests/e2e does.
import { createClient } from "@libsql/client";

/** The session cookie (`name=value`) of a new paid account on the server at `base`, whose database is `dbUrl`. */
export async function signInPaidUser(base: string, dbUrl: string, prefix: string): Promise<string> {
  const email = `${prefix}-${Date.now().toString(36)}@example.com`;
  const response = await fetch(`${base}/signup`, {
    method: "POST",
    redirect: "manual",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: base },
    body: new URLSearchParams({ email, password: "correct-horse-battery" }),
  });
  const setCookie = response.headers.get("set-cookie");
  if (response.status !== 302 || !setCookie) throw new Error(`sign-up answered ${response.status}`);
  const db = createClient({ url: dbUrl });
  try {
    await db.execute({
      sql: `UPDATE "User" SET "subscription_id" = ?, "userSubscribed" = 'yes' WHERE "email" = ?`,
      args: [`sub_bench_${Date.now()}`, email],
    });
  } finally {
    db.close();
  }
  return setCookie.split(";")[0];
}
