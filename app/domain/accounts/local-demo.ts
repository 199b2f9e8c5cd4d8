// What "a local demo" is (docs/decisions/042): the one definition the environment module, the seed and the
// start script's checks rest on. A server is a local demo when it is not a production process, or when its
// public address (APP_URL) is on this machine's loopback: localhost, 127.0.0.0/8 or [::1]. Such a server may
// run the local test checkout, seed the README's demo login and use secrets from the repository; anything
// else is a public deployment, where none of that happens. An unset APP_URL in production is a public
// deployment: `npm start` sets http://localhost:PORT when it is empty, and says so.

/** Whether a URL's host is this machine's loopback interface (localhost, 127.0.0.0/8, [::1]). */
export function isLoopbackUrl(url: string | undefined): boolean {
  if (!url || !URL.canParse(url)) return false;
  const host = new URL(url).hostname.toLowerCase();
  if (host === "localhost" || host === "[::1]") return true;
  const octets = host.split(".");
  return octets.length === 4 && octets[0] === "127" && octets.every((o) => /^\d{1,3}$/.test(o) && Number(o) <= 255);
}

/** Whether this server is a local demo rather than a public deployment. */
export function isLocalDemo(env: { NODE_ENV: string; APP_URL?: string | undefined }): boolean {
  return env.NODE_ENV !== "production" || isLoopbackUrl(env.APP_URL);
}
