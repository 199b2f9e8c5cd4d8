// Inbound limits (docs/decisions/064): what anyone may try without an account before being told to wait. Log-in
// failures per e-mail and per client address (a success clears the e-mail's count), sign-ups per client address,
// and the public calls (page events) per client address, all on the one limiter (rate-limits.server.ts: counters in
// the database, shared by every process). The rules are RATE_LIMITS' loginPerEmail, loginPerIp, signupPerIp and
// publicCallsPerIp; here LOGIN_MAX_FAILURES / LOGIN_WINDOW_MINUTES are set on the log-in rules and every
// per-address rule is scaled by INBOUND_LIMITS_SCALE (many people behind one address; the end-to-end suite). A
// null client address (none known, app/pages/http/client-address.server.ts) is never counted.
import { AppError } from "~/domain/errors";
import { RATE_LIMITS, retryInWords, type RateLimit, type RateLimitRule, type RateLimits } from "~/services/api-access/rate-limits.server";

export interface InboundLimitsSettings {
  /** INBOUND_LIMITS_SCALE: multiplies every per-client-address limit. */
  addressScale: number;
  /** LOGIN_MAX_FAILURES: failed log-ins per e-mail in the window. */
  loginMaxFailures: number;
  /** LOGIN_WINDOW_MINUTES: the log-in rules' window. */
  loginWindowMinutes: number;
}

/** A per-client-address rule with its tries multiplied by the scale (at least one). */
export function perAddress(rule: RateLimitRule, scale: number): RateLimitRule {
  return { ...rule, points: Math.max(1, Math.round(rule.points * scale)) };
}

/** What log-in and sign-up need (app/services/accounts/auth.server.ts takes it as a dependency). */
export interface AuthLimits {
  /** Before a password is checked: 429 when this e-mail or this client address has failed too often. */
  beforeLogin(email: string, ip: string | null): Promise<void>;
  /** A wrong e-mail or password: one more failure for both. */
  loginFailed(email: string, ip: string | null): Promise<void>;
  /** A successful log-in (or a new password from a reset link): the e-mail's failures are forgotten. */
  loginSucceeded(email: string): Promise<void>;
  /** Counts a sign-up try from this client address; 429 past the limit. */
  signup(ip: string | null): Promise<void>;
}

export function createInboundLimits(deps: { limits: RateLimits } & InboundLimitsSettings) {
  const windowSeconds = deps.loginWindowMinutes * 60;
  const loginPerEmail = deps.limits.limit({ ...RATE_LIMITS.loginPerEmail, points: deps.loginMaxFailures, windowSeconds });
  const loginPerIp = deps.limits.limit({ ...perAddress(RATE_LIMITS.loginPerIp, deps.addressScale), windowSeconds });
  const signupPerIp = deps.limits.limit(perAddress(RATE_LIMITS.signupPerIp, deps.addressScale));
  const publicCalls = deps.limits.limit(perAddress(RATE_LIMITS.publicCallsPerIp, deps.addressScale));

  /** Failures are only counted when they happen, so a subject at its limit is refused before the next try. */
  async function refuseAtLimit(limit: RateLimit, subject: string | null) {
    if (!subject) return;
    const { used, resetSeconds } = await limit.usage(subject);
    if (used >= limit.rule.points) {
      throw new AppError(429, limit.rule.refusal(retryInWords(resetSeconds)), { retryAfterSeconds: resetSeconds });
    }
  }

  const auth: AuthLimits = {
    async beforeLogin(email, ip) {
      await refuseAtLimit(loginPerEmail, email);
      await refuseAtLimit(loginPerIp, ip);
    },
    async loginFailed(email, ip) {
      // Both are counted even when one of them has just passed its limit (two tries at once).
      const counted = await Promise.allSettled([loginPerEmail.consume(email), loginPerIp.consume(ip)]);
      const refused = counted.find((c) => c.status === "rejected");
      if (refused) throw refused.reason;
    },
    async loginSucceeded(email) {
      await loginPerEmail.reset(email);
    },
    async signup(ip) {
      await signupPerIp.consume(ip);
    },
  };

  return {
    ...auth,
    /** Counts one call anyone may make without signing in (page events); 429 past the limit. */
    async publicCall(ip: string | null) {
      await publicCalls.consume(ip);
    },
  };
}

export type InboundLimits = ReturnType<typeof createInboundLimits>;
