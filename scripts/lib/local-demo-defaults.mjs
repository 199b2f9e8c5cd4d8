// What `npm start` fills in when it is given no APP_URL (docs/decisions/042): the quick start is a local demo on
// http://localhost:PORT, and it listens on the loopback interface only, so the free test checkout and the demo
// login it serves are out of reach of other machines. HOST set by hand (HOST=0.0.0.0 to try it from a phone) is
// kept, and said out loud; with APP_URL set nothing is changed.

/** Fills APP_URL (and HOST) in env for a local demo; returns the lines to print, none when APP_URL was set. */
export function applyLocalDemoDefaults(env) {
  if (env.APP_URL) return [];
  env.APP_URL = `http://localhost:${env.PORT}`;
  const lines = [
    `No APP_URL: this is a local demo at ${env.APP_URL}${env.PADDLE_API_KEY ? "" : " (payments use the local test checkout: nothing is charged)"}, with the demo login. Set APP_URL to the site's public address to deploy it.`,
  ];
  if (!env.HOST) {
    env.HOST = "127.0.0.1";
    lines.push("It listens on 127.0.0.1 only; set HOST=0.0.0.0 to reach it from other machines.");
  } else {
    lines.push(`HOST=${env.HOST}: other machines that reach this address get the local demo too (free plans, the demo login).`);
  }
  return lines;
}
