// Site users and signed-in browsers for integration tests, written straight to the test database
// through the app's own services (as the Epic Stack's login helpers do). Tests about sign-up and
// log-in themselves go through the routes instead.
import type { Prisma } from "@prisma/client";
import { randomBytes } from "node:crypto";
import { db } from "~/db.server";
import { createUserSession } from "~/pages/http/site-session.server";
import { hashPassword } from "~/services/accounts/password-hashing.server";
import { makeRequest, uniqueEmail } from "./routes";

export const TEST_PASSWORD = "correct horse battery";

export async function createUser(fields: Partial<Prisma.UserCreateInput> = {}, password = TEST_PASSWORD) {
  return db.user.create({
    data: { email: uniqueEmail(), passwordHash: await hashPassword(password), ...fields },
    select: { id: true, email: true },
  });
}

/** A Cookie header value for a new session of this user, as a browser would send it back. */
export async function signInAs(userId: string): Promise<string> {
  const setCookie = await createUserSession(userId, makeRequest("/login", { method: "POST" }));
  return setCookie.split(";")[0];
}

export async function createSignedInUser(fields: Partial<Prisma.UserCreateInput> = {}) {
  const user = await createUser(fields);
  return { ...user, cookie: await signInAs(user.id) };
}

/** A distinct client address per test, so the per-IP login limit of one test never touches another. */
export function uniqueIp(): string {
  const [a, b, c] = randomBytes(3);
  return `10.${a}.${b}.${c}`;
}
