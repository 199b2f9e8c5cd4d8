// Google sign-in through Firebase Auth: the browser gets an ID token from the Firebase web SDK popup,
// the server verifies it here against Google's public keys (signature, issuer, audience, expiry).
// The key URL is configurable so tests serve their own keys on 127.0.0.1.
import { createRemoteJWKSet, jwtVerify, type JWTVerifyGetKey } from "jose";

export interface GoogleIdentity {
  uid: string;
  email: string;
  emailVerified: boolean;
}

export class InvalidIdTokenError extends Error {
  constructor(reason: string) {
    super(`Google sign-in token rejected: ${reason}`);
    this.name = "InvalidIdTokenError";
  }
}

const keySets = new Map<string, JWTVerifyGetKey>();
function keySet(jwksUrl: string): JWTVerifyGetKey {
  let set = keySets.get(jwksUrl);
  if (!set) {
    set = createRemoteJWKSet(new URL(jwksUrl), { cooldownDuration: 30_000, cacheMaxAge: 6 * 3600_000 });
    keySets.set(jwksUrl, set);
  }
  return set;
}

export async function verifyFirebaseIdToken(
  idToken: string,
  options: { projectId: string; jwksUrl: string; now?: Date },
): Promise<GoogleIdentity> {
  let payload;
  try {
    ({ payload } = await jwtVerify(idToken, keySet(options.jwksUrl), {
      issuer: `https://securetoken.google.com/${options.projectId}`,
      audience: options.projectId,
      algorithms: ["RS256"],
      currentDate: options.now,
      clockTolerance: 5,
    }));
  } catch (error) {
    throw new InvalidIdTokenError(error instanceof Error ? error.message : "unverifiable");
  }
  const authTime = typeof payload.auth_time === "number" ? payload.auth_time : undefined;
  const nowSeconds = Math.floor((options.now ?? new Date()).getTime() / 1000);
  if (!payload.sub) throw new InvalidIdTokenError("no subject");
  if (authTime === undefined || authTime > nowSeconds + 5) throw new InvalidIdTokenError("bad auth_time");
  if (typeof payload.email !== "string" || payload.email === "") {
    throw new InvalidIdTokenError("the Google account has no e-mail address");
  }
  return { uid: payload.sub, email: payload.email.toLowerCase(), emailVerified: payload.email_verified === true };
}
