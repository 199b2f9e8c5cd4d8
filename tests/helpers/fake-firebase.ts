// A stand-in for Google's securetoken key endpoint on 127.0.0.1: serves a JWK set we generated and
// signs Firebase-shaped ID tokens with it (https://firebase.google.com/docs/auth/admin/verify-id-tokens).
// Imports no app module, so a test can start it before the app reads its environment.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWTPayload } from "jose";

export interface IdTokenClaims extends JWTPayload {
  email?: string;
  email_verified?: boolean;
  auth_time?: number;
}

export interface FakeFirebase {
  projectId: string;
  jwksUrl: string;
  /** How many times the key set was fetched. */
  keyRequests: () => number;
  /** A token as Firebase would issue it for this project; claims override the defaults. */
  signIdToken: (claims?: IdTokenClaims, options?: { key?: "ours" | "other" }) => Promise<string>;
  close: () => Promise<void>;
}

const KID = "fake-firebase-key-1";

export async function startFakeFirebase(projectId: string): Promise<FakeFirebase> {
  const ours = await generateKeyPair("RS256", { extractable: true });
  // Another key pair published nowhere: a forger who copies our kid but not our private key.
  const other = await generateKeyPair("RS256", { extractable: true });
  const jwk = { ...(await exportJWK(ours.publicKey)), kid: KID, alg: "RS256", use: "sig" };

  let requests = 0;
  const server = createServer((req, res) => {
    if (req.method === "GET" && req.url === "/jwks") {
      requests += 1;
      res.writeHead(200, { "content-type": "application/json", "cache-control": "public, max-age=3600" });
      res.end(JSON.stringify({ keys: [jwk] }));
      return;
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;

  async function signIdToken(claims: IdTokenClaims = {}, options: { key?: "ours" | "other" } = {}) {
    const now = Math.floor(Date.now() / 1000);
    const key: CryptoKey = options.key === "other" ? other.privateKey : ours.privateKey;
    const payload: IdTokenClaims = {
      iss: `https://securetoken.google.com/${projectId}`,
      aud: projectId,
      sub: `google-uid-${Math.random().toString(36).slice(2, 12)}`,
      email: `google-${Math.random().toString(36).slice(2, 10)}@example.com`,
      email_verified: true,
      auth_time: now - 10,
      iat: now - 10,
      exp: now + 3600,
      ...claims,
    };
    return new SignJWT(payload).setProtectedHeader({ alg: "RS256", kid: KID, typ: "JWT" }).sign(key);
  }

  return {
    projectId,
    jwksUrl: `http://127.0.0.1:${port}/jwks`,
    keyRequests: () => requests,
    signIdToken,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((err) => (err ? reject(err) : resolve()));
        server.closeAllConnections();
      }),
  };
}
