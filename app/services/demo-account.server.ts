// The README's demo login (docs/decisions/042). A local demo gets it, with its published password set again at
// every start so the printed login always works; a public deployment never has it: the seed does not create
// it, and an account left from an earlier start (older versions seeded it everywhere) is locked with a
// random password nobody knows and signed out.
import { randomBytes } from "node:crypto";
import type { Db } from "~/db.server";
import { hashPassword } from "~/services/passwords.server";

export const DEMO_EMAIL = "demo@winningproducts.test";
export const DEMO_PASSWORD = "demo-password-2026";

/** ready: the demo login works; absent: there is none; locked: a leftover demo account can no longer sign in. */
export type DemoAccountState = "ready" | "absent" | "locked";

export async function seedDemoAccount(db: Db, options: { localDemo: boolean }): Promise<DemoAccountState> {
  if (options.localDemo) {
    const passwordHash = await hashPassword(DEMO_PASSWORD);
    await db.user.upsert({
      where: { email: DEMO_EMAIL },
      create: { email: DEMO_EMAIL, passwordHash },
      update: { passwordHash },
      select: { id: true },
    });
    return "ready";
  }
  const existing = await db.user.findUnique({ where: { email: DEMO_EMAIL }, select: { id: true } });
  if (!existing) return "absent";
  const passwordHash = await hashPassword(randomBytes(32).toString("hex"));
  await db.$transaction([
    db.user.update({ where: { id: existing.id }, data: { passwordHash }, select: { id: true } }),
    db.userSession.deleteMany({ where: { userId: existing.id } }),
  ]);
  return "locked";
}
