// Google sign-in on the site: a Firebase ID token from the browser's popup, verified by the Firebase
// adapter, then the account found or created (auth.googleAuth). Disabled (null verifier) when Firebase
// is not configured, and the route answers 404.
import { AppError } from "~/domain/errors";
import type { Db } from "~/db.server";
import type { GoogleIdentity } from "~/integrations/firebase.server";
import { googleAuth } from "~/services/accounts/auth.server";

/** Verifies an ID token; throws when it is not valid (any error counts as "not verified"). */
export type IdTokenVerifier = (idToken: string) => Promise<GoogleIdentity>;

export function createGoogleSignIn(deps: { db: Db; verify: IdTokenVerifier | null; isInvalidToken: (error: unknown) => boolean }) {
  return {
    enabled: deps.verify !== null,
    /** The signed-in (or new) user; AppError 401 for a token we cannot verify, and googleAuth's refusals. */
    async signIn(idToken: string, mode: "signin" | "signup") {
      if (!deps.verify) throw new AppError(404, "Google sign-in is not enabled on this site.");
      let identity: GoogleIdentity;
      try {
        identity = await deps.verify(idToken);
      } catch (error) {
        if (deps.isInvalidToken(error)) {
          throw new AppError(401, "We couldn't verify your Google sign-in. Try again.", { code: "error_3" });
        }
        throw error;
      }
      const result = await googleAuth(deps.db, identity, mode);
      return { userId: result.userId, created: result.created, email: identity.email };
    },
  };
}
