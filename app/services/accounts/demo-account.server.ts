// The README's demo login (docs/decisions/042, 051). A local demo gets it, with its published password set again at
// every start so the printed login always works, its address counted as confirmed (it can receive no mail), and
// an active trial with credits bought through the billing service's own local checkout (a correctly signed
// webhook through the production handler, the path a real purchase takes), so it demonstrates the paid product.
// A public deployment never has it: the seed does not create it, and an account left from an earlier start
// (older versions seeded it everywhere) is locked with a random password nobody knows and signed out.
import { randomBytes } from "node:crypto";
import type { Db } from "~/db.server";
import { DEMO_EMAIL, DEMO_PASSWORD } from "~/domain/accounts/demo-account";
import { AppError } from "~/domain/errors";
import { hashPassword } from "~/services/accounts/password-hashing.server";

export { DEMO_EMAIL, DEMO_PASSWORD, DEMO_PLAN_ID } from "~/domain/accounts/demo-account";

/** ready: the demo login works; absent: there is none; locked: a leftover demo account can no longer sign in. */
export type DemoAccountState = "ready" | "absent" | "locked";

/** Starts the demo plan's trial through billing (the local checkout); AppError 409 when a subscription is already live. */
export type StartDemoTrial = (userId: string) => Promise<unknown>;

export interface SeedDemoOptions {
  localDemo: boolean;
  /** Without it (a server whose local checkout is off: real Paddle keys) the demo account has no plan. */
  startTrial?: StartDemoTrial;
}

export async function seedDemoAccount(db: Db, options: SeedDemoOptions): Promise<DemoAccountState> {
  if (options.localDemo) {
    const passwordHash = await hashPassword(DEMO_PASSWORD);
    const user = await db.user.upsert({
      where: { email: DEMO_EMAIL },
      create: { email: DEMO_EMAIL, passwordHash, emailVerifiedAt: new Date() },
      update: { passwordHash },
      select: { id: true, emailVerifiedAt: true },
    });
    if (!user.emailVerifiedAt) {
      await db.user.update({ where: { id: user.id }, data: { emailVerifiedAt: new Date() }, select: { id: true } });
    }
    if (options.startTrial) {
      try {
        await options.startTrial(user.id);
      } catch (error) {
        // A live subscription from an earlier start is kept as it is (its credits included).
        if (!(error instanceof AppError && error.status === 409)) throw error;
      }
    }
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
