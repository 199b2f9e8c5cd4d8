// The signed-in user's own account (/dashboard/account): change the password or the e-mail, download
// everything we hold about them, and delete the account. Every change is confirmed by the user: the
// current password (or, for an account that only signs in with Google, its e-mail address typed again),
// and for deletion also the word DELETE. Wrong confirmations are counted like failed log-ins, so a
// borrowed session cannot guess the password. Deletion cancels the Paddle subscription first and erases
// everything owned by the user in one transaction; if Paddle refuses, nothing is deleted.
import { AppError } from "~/domain/errors";
import { EmailSchema, PasswordSchema } from "~/domain/accounts/auth";
import { writeTransaction, type Db } from "~/db.server";
import { eraseOutboxPerson, outboxWritten } from "~/services/outbox.server";
import { hashPassword, verifyPassword } from "~/services/accounts/password-hashing.server";
import { userSelect } from "~/services/accounts/auth.server";
import { retryInWords } from "~/services/api-access/rate-limits.server";
import { EMAIL_TAKEN, revokeLinks } from "~/services/accounts/emails.server";

export interface AccountDeps {
  db: Db;
  /**
   * Stops a Paddle subscription from billing again (the composition root wires it to the billing port).
   * Throws when Paddle refuses or cannot be reached; the account is then left as it is.
   */
  cancelSubscription(subscriptionId: string): Promise<void>;
  /**
   * Cancels a subscription billed through Shopify (appSubscriptionCancel through the shop's session), so a
   * store that keeps the app installed is not charged for an account that no longer exists. Throws when
   * Shopify refuses or cannot be reached; the account is then left as it is.
   */
  cancelShopifySubscription?(userId: string, subscriptionId: string): Promise<void>;
  /** Forgets the rate-limit counters kept for these subjects (the address, the user's id) outside this database (decision 069). */
  forgetRateLimits(subjects: string[]): Promise<void>;
  /**
   * Mails a confirmation link to a new address (the account e-mails' requestEmailChange, decision 079): counted
   * against the per-account and per-address limits (AppError 429); the address becomes the login once it is opened.
   */
  requestEmailChange(userId: string, email: string): Promise<void>;
  /** The new address waiting for its link, or null (the account e-mails' pendingEmailChange). */
  pendingEmailChange(userId: string): Promise<string | null>;
  /** Removes a rendered AI-ad video by its storage key, after the rows are gone. */
  removeVideo?(storageKey: string): Promise<void>;
  /** Wrong confirmations allowed within the window before 429 (the log-in limits by default: 5 in 15 min). */
  maxFailures?: number;
  windowMinutes?: number;
}

/** The word a user types to confirm deleting the account. */
export const DELETE_WORD = "DELETE";

export function createAccount(deps: AccountDeps) {
  const { db } = deps;
  const maxFailures = deps.maxFailures ?? 5;
  const windowMinutes = deps.windowMinutes ?? 15;
  const failureKey = (userId: string) => `account:${userId}`;

  async function loadIdentity(userId: string) {
    const user = await db.user.findUnique({ where: { id: userId }, select: { id: true, email: true, passwordHash: true } });
    if (!user) throw new AppError(404, "This account no longer exists.");
    return user;
  }

  /** Checks the user's confirmation; a wrong one is counted and refused with nothing changed. */
  async function confirm(userId: string, confirmation: string | undefined) {
    const user = await loadIdentity(userId);
    const hasPassword = Boolean(user.passwordHash);
    if (!confirmation?.trim()) {
      throw new AppError(400, hasPassword ? "Enter your current password to confirm." : "Type your e-mail address to confirm.", {
        field: "confirmation",
      });
    }
    const key = failureKey(userId);
    const since = new Date(Date.now() - windowMinutes * 60_000);
    const failures = await db.loginFailure.findMany({
      where: { key, createdAt: { gte: since } },
      orderBy: { createdAt: "desc" },
      take: maxFailures,
      select: { createdAt: true },
    });
    if (failures.length >= maxFailures) {
      // The oldest of the counted failures leaves the window first: then one more try is allowed.
      const freeAt = failures[failures.length - 1].createdAt.getTime() + windowMinutes * 60_000;
      const retryAfterSeconds = Math.max(1, Math.ceil((freeAt - Date.now()) / 1000));
      throw new AppError(429, `Too many wrong confirmations. Try again ${retryInWords(retryAfterSeconds)}.`, {
        field: "confirmation",
        retryAfterSeconds,
      });
    }
    const ok = user.passwordHash
      ? await verifyPassword(confirmation, user.passwordHash)
      : confirmation.trim().toLowerCase() === user.email;
    if (!ok) {
      await db.loginFailure.create({ data: { key }, select: { id: true } });
      throw new AppError(
        403,
        hasPassword
          ? "That is not your current password. Nothing was changed."
          : "That is not your account's e-mail address. Nothing was changed.",
        { field: "confirmation" },
      );
    }
    await db.loginFailure.deleteMany({ where: { key } });
    return user;
  }

  /** What the account page shows. */
  async function overview(userId: string) {
    const user = await db.user.findUnique({
      where: { id: userId },
      select: { email: true, createdAt: true, passwordHash: true, googleUid: true },
    });
    if (!user) throw new AppError(404, "This account no longer exists.");
    const [sessions, activeSubscriptions, pendingEmail] = await Promise.all([
      db.userSession.count({ where: { userId, expiresAt: { gt: new Date() } } }),
      db.billingSubscription.count({ where: { userId, status: { not: "canceled" } } }),
      deps.pendingEmailChange(userId),
    ]);
    return {
      email: user.email,
      pendingEmail,
      memberSince: user.createdAt.toISOString().slice(0, 10),
      hasPassword: Boolean(user.passwordHash),
      signsInWithGoogle: Boolean(user.googleUid),
      sessions,
      activeSubscriptions,
    };
  }

  /**
   * A new password, validated like sign-up's. Every other session ends; the one in keepSessionId
   * (the browser that asked) stays signed in. An account without a password (Google) gets its first one.
   * Every live reset link and pending e-mail change stops working (decision 079).
   */
  async function changePassword(
    userId: string,
    input: { currentPassword?: string; newPassword?: string; keepSessionId: string | null },
  ): Promise<{ endedSessions: number }> {
    const parsed = PasswordSchema.safeParse(input.newPassword ?? "");
    if (!parsed.success) {
      throw new AppError(400, parsed.error.issues[0]?.message ?? "Choose another password.", { field: "newPassword" });
    }
    const user = await confirm(userId, input.currentPassword);
    if (user.passwordHash && (await verifyPassword(parsed.data, user.passwordHash))) {
      throw new AppError(400, "That is your current password. Choose a new one.", { field: "newPassword" });
    }
    const passwordHash = await hashPassword(parsed.data);
    return writeTransaction(db, async (tx) => {
      await tx.user.update({ where: { id: userId }, data: { passwordHash }, select: { id: true } });
      await revokeLinks(tx, userId, ["password-reset", "email-change"]);
      const { count } = await tx.userSession.deleteMany({
        where: { userId, ...(input.keepSessionId ? { NOT: { id: input.keepSessionId } } : {}) },
      });
      return { endedSessions: count };
    });
  }

  /**
   * Asks for a new sign-in e-mail, valid and not used by another account (409): a link goes to it, and the account
   * keeps its address until the link is opened (decision 079). Returns the address waiting for confirmation.
   */
  async function changeEmail(userId: string, input: { password?: string; newEmail?: string }): Promise<{ pendingEmail: string }> {
    const parsed = EmailSchema.safeParse(input.newEmail ?? "");
    if (!parsed.success) {
      throw new AppError(400, parsed.error.issues[0]?.message ?? "Enter a valid e-mail address.", { field: "newEmail" });
    }
    const email = parsed.data;
    const user = await confirm(userId, input.password);
    if (email === user.email) throw new AppError(400, "That is already your e-mail address.", { field: "newEmail" });
    if ((await db.user.count({ where: { email } })) > 0) throw new AppError(409, EMAIL_TAKEN, { field: "newEmail" });
    try {
      await deps.requestEmailChange(userId, email);
    } catch (error) {
      // Past a mail limit: the sentence goes beside the address.
      if (error instanceof AppError) throw new AppError(error.status, error.message, { ...error.details, field: "newEmail" });
      throw error;
    }
    return { pendingEmail: email };
  }

  /**
   * Everything we hold about the user, as plain JSON. Never a secret: no password hash, no tokens or
   * their hashes, no session ids, no encrypted store tokens.
   */
  async function exportData(userId: string, confirmation: string | undefined) {
    await confirm(userId, confirmation);
    const where = { userId };
    const user = await db.user.findUniqueOrThrow({
      where: { id: userId },
      // The profile every page reads (auth.userSelect), plus what only the export shows.
      select: { ...userSelect, googleUid: true, updatedAt: true, isOperator: true, legacyShopifyAdminUrl: true, passwordHash: true },
    });
    const { passwordHash, ...profile } = user;
    const stores = await db.shopifyStore.findMany({
      where,
      orderBy: { id: "asc" },
      select: { shop: true, store_name: true, shopify_admin_url: true, connected: true, linkedAt: true, disconnectedAt: true },
    });
    const [
      sessions,
      subscriptions,
      transactions,
      creditBalances,
      creditLedger,
      savedProducts,
      trackedProducts,
      savedSearches,
      courseProgress,
      lessonsCompleted,
      feedback,
      bugReports,
      themeTokens,
      productPages,
      aiAds,
      glitches,
      discordProfile,
      competitorFollows,
      competitorProductFollows,
      notificationRows,
      brandKits,
      tiktoks,
      threads,
      revealedDrops,
      aiAdPreviews,
    ] = await Promise.all([
      db.userSession.findMany({ where, orderBy: { createdAt: "asc" }, select: { createdAt: true, expiresAt: true, userAgent: true, ip: true } }),
      db.billingSubscription.findMany({ where, orderBy: { createdAt: "asc" } }),
      db.billingTransaction.findMany({ where, orderBy: { createdAt: "asc" } }),
      db.creditBalance.findMany({ where, orderBy: { feature: "asc" }, select: { feature: true, balance: true } }),
      db.creditLedger.findMany({
        where,
        orderBy: { id: "asc" },
        select: { id: true, feature: true, kind: true, amount: true, cost: true, balanceAfter: true, reason: true, refundOf: true, createdAt: true },
      }),
      db.savedProduct.findMany({ where, orderBy: { savedAt: "asc" }, select: { productId: true, savedAt: true } }),
      db.trackedProduct.findMany({ where, orderBy: { trackedAt: "asc" }, omit: { userId: true } }),
      db.savedSearch.findMany({ where, orderBy: { id: "asc" }, omit: { userId: true } }),
      db.userCourse.findUnique({ where: { userId }, omit: { userId: true } }),
      db.lessonCompletion.findMany({ where, orderBy: { lessonNumber: "asc" }, select: { lessonNumber: true, completedAt: true } }),
      db.feedback.findMany({ where, orderBy: { id: "asc" }, omit: { userId: true } }),
      db.bugReport.findMany({ where, orderBy: { id: "asc" }, omit: { userId: true } }),
      db.themeToken.findMany({ where, orderBy: { id: "asc" }, omit: { userId: true, tokenHash: true } }),
      db.productPage.findMany({ where, orderBy: { id: "asc" }, omit: { userId: true } }),
      db.aiAd.findMany({ where, orderBy: { id: "asc" }, omit: { userId: true, storageKey: true } }),
      db.glitch.findMany({ where, orderBy: { id: "asc" }, omit: { userId: true } }),
      db.discordProfile.findUnique({ where: { userId }, omit: { userId: true } }),
      db.competitor.findMany({
        where,
        orderBy: { id: "asc" },
        select: { id: true, name: true, createdAt: true, store: { select: { domain: true } } },
      }),
      db.competitorProductFollow.findMany({
        where,
        orderBy: { id: "asc" },
        select: { competitorId: true, productId: true, createdAt: true },
      }),
      db.notification.findMany({
        where,
        orderBy: { id: "asc" },
        select: { kind: true, title: true, body: true, url: true, createdAt: true, readAt: true },
      }),
      // The logo's bytes stay out of the file (it can be downloaded from the Brand kits page).
      db.brandKit.findMany({ where, orderBy: { id: "asc" }, omit: { userId: true, logo: true } }),
      db.tikTok.findMany({ where, orderBy: { id: "asc" }, omit: { userId: true } }),
      db.thread.findMany({
        where,
        orderBy: { id: "asc" },
        select: {
          id: true,
          title: true,
          createdAt: true,
          updatedAt: true,
          messages: { orderBy: { id: "asc" }, omit: { userId: true, threadId: true } },
        },
      }),
      db.userProductDrop.findMany({ where, orderBy: { date: "asc" }, select: { date: true, revealedAt: true } }),
      db.aiAdPreview.findMany({ where, orderBy: { id: "asc" }, omit: { userId: true, storageKey: true } }),
    ]);
    const productIds = [...new Set([...savedProducts, ...trackedProducts].map((p) => p.productId))];
    const products = new Map(
      (await db.product.findMany({ where: { id: { in: productIds } }, select: { id: true, objectID: true, title: true } })).map(
        (p) => [p.id, p],
      ),
    );
    const product = (id: number) => ({ objectID: products.get(id)?.objectID ?? null, title: products.get(id)?.title ?? null });
    return {
      exportedAt: new Date().toISOString(),
      about:
        "Everything Winning Products holds about your account. Passwords, tokens and session ids are never included.",
      profile: { ...profile, hasPassword: Boolean(passwordHash) },
      sessions,
      billing: { subscriptions, transactions },
      credits: { balances: creditBalances, ledger: creditLedger },
      research: {
        savedProducts: savedProducts.map((s) => ({ ...product(s.productId), savedAt: s.savedAt })),
        trackedProducts: trackedProducts.map(({ productId, revenueCentsAtTrack, ...t }) => ({
          ...product(productId),
          ...t,
          revenueCentsAtTrack: Number(revenueCentsAtTrack),
        })),
        savedSearches,
      },
      course: { progress: courseProgress, lessonsCompleted },
      feedback,
      bugReports,
      shopify: { stores, themeTokens },
      productPages,
      aiAds,
      aiAdPreviews,
      glitches,
      discordProfile,
      competitors: {
        following: competitorFollows.map((c) => ({ id: c.id, name: c.name, domain: c.store.domain, followedAt: c.createdAt })),
        followedProducts: competitorProductFollows,
      },
      notifications: notificationRows,
      brandKits,
      tiktoks,
      assistantThreads: threads,
      productDrops: { revealedDates: revealedDrops.map((d) => d.date), reveals: revealedDrops },
    };
  }

  /**
   * Deletes the account: the typed word and the confirmation first; then every Paddle subscription that
   * would bill again is cancelled at Paddle (a failure refuses the deletion with nothing deleted); then,
   * in one transaction, the store links and their Shopify sessions (tokens), theme tokens, outbox rows
   * about the user, and the user with everything they own.
   */
  async function deleteAccount(
    userId: string,
    input: { confirmation?: string; typedWord?: string },
  ): Promise<{ cancelledSubscriptions: string[] }> {
    if ((input.typedWord ?? "").trim() !== DELETE_WORD) {
      throw new AppError(400, `Type ${DELETE_WORD} in capitals to confirm. Nothing was deleted.`, { field: "typedWord" });
    }
    const user = await confirm(userId, input.confirmation);

    const billable = await db.billingSubscription.findMany({
      where: { userId, provider: { in: ["paddle", "shopify"] }, status: { not: "canceled" } },
      select: { id: true, provider: true },
    });
    const cancelled: string[] = [];
    // A subscription already set to end at its period end is ended now too: the account is going away.
    for (const sub of billable) {
      const where = sub.provider === "shopify" ? "Shopify" : "Paddle";
      try {
        if (sub.provider === "shopify") await deps.cancelShopifySubscription?.(userId, sub.id);
        else await deps.cancelSubscription(sub.id);
      } catch (error) {
        throw new AppError(
          502,
          `We could not cancel your subscription with ${where}, so your account was not deleted. Try again in a few minutes, or cancel the subscription on the Billing page first.`,
          { cause: error },
        );
      }
      cancelled.push(sub.id);
    }

    // The rendered videos and the free previews' files (docs/decisions/036).
    const videoKeys = [
      ...(await db.aiAd.findMany({ where: { userId, storageKey: { not: null } }, select: { storageKey: true } })),
      ...(await db.aiAdPreview.findMany({ where: { userId, storageKey: { not: null } }, select: { storageKey: true } })),
    ]
      .map((a) => a.storageKey)
      .filter((k): k is string => k !== null);

    await writeTransaction(db, async (tx) => {
      const where = { userId };
      const shops = (await tx.shopifyStore.findMany({ where, select: { shop: true } })).map((s) => s.shop);
      // Store links and every token we hold for them: the offline sessions (encrypted access tokens) of
      // the user's shops, the store rows (encrypted copies), theme licence tokens, hand-off links.
      if (shops.length > 0) await tx.session.deleteMany({ where: { shop: { in: shops } } });
      await tx.shopifyStore.deleteMany({ where });
      await tx.themeToken.deleteMany({ where });
      await tx.handoffToken.deleteMany({ where });
      // Outbox rows about the user (analytics and e-mail events carry the address in the payload); if
      // Klaviyo holds a profile of theirs, a deletion request takes their place (docs/decisions/032).
      const { klaviyoId } = await tx.user.findUniqueOrThrow({ where: { id: userId }, select: { klaviyoId: true } });
      await eraseOutboxPerson(tx, { userId, email: user.email, klaviyoId });
      await tx.loginFailure.deleteMany({ where: { key: { in: [`email:${user.email}`, failureKey(userId)] } } });
      // Reset and confirmation links (hashes), and the rate-limit counters keyed by the address (decision 051).
      await tx.authToken.deleteMany({ where });
      await tx.rateLimit.deleteMany({ where: { key: { endsWith: `:${user.email}` } } });
      // Decision 063's table in this file (its rows were copied to the counters' own file, decision 069).
      await tx.rateLimitCounter.deleteMany({ where: { key: { endsWith: `:${user.email}` } } });
      await tx.paddleEvent.deleteMany({ where });
      // Rows without a relation to User (no cascade), then the user (sessions, subscriptions, hand-offs,
      // AI ads and glitches cascade), then the ledger, which accepts deletes only once its user is gone
      // (migration 009).
      await tx.billingTransaction.deleteMany({ where });
      await tx.savedProduct.deleteMany({ where });
      await tx.trackedProduct.deleteMany({ where });
      await tx.savedSearch.deleteMany({ where });
      await tx.lessonCompletion.deleteMany({ where });
      await tx.userCourse.deleteMany({ where });
      await tx.discordProfile.deleteMany({ where });
      await tx.feedback.deleteMany({ where });
      await tx.bugReport.deleteMany({ where });
      await tx.productPage.deleteMany({ where });
      await tx.creditBalance.deleteMany({ where });
      await tx.user.delete({ where: { id: userId }, select: { id: true } });
      await tx.creditLedger.deleteMany({ where });
    });

    outboxWritten();
    await deps.forgetRateLimits([user.email, `user:${userId}`]);
    for (const key of videoKeys) await deps.removeVideo?.(key).catch(() => undefined);
    return { cancelledSubscriptions: cancelled };
  }

  return { overview, changePassword, changeEmail, exportData, deleteAccount };
}

export type Account = ReturnType<typeof createAccount>;
