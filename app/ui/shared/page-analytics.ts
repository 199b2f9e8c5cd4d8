// Browser side of page analytics (seed §2): a page view when a route is entered and a page leave
// when it is left, sent to /api/analytics. The server decides whether the user is identified.
const KEY = "wp_anon_id";

function anonymousId(): string {
  try {
    let id = window.localStorage.getItem(KEY);
    if (!id) {
      id = crypto.randomUUID();
      window.localStorage.setItem(KEY, id);
    }
    return id;
  } catch {
    return "anonymous-no-storage";
  }
}

function send(event: "$pageview" | "$pageleave", path: string) {
  const body = JSON.stringify({ event, path, anonymousId: anonymousId(), referrer: document.referrer || undefined });
  try {
    const blob = new Blob([body], { type: "application/json" });
    if (event === "$pageleave" && navigator.sendBeacon?.("/api/analytics", blob)) return;
    void fetch("/api/analytics", { method: "POST", body, headers: { "content-type": "application/json" }, keepalive: true }).catch(
      (error) => console.warn("analytics failed", error),
    );
  } catch (error) {
    // Seed §8: analytics failures are only logged.
    console.warn("analytics failed", error);
  }
}

/** Call in an effect keyed on the location; the returned cleanup sends the page leave. */
export function trackPageViews(path: string): () => void {
  send("$pageview", path);
  const onHide = () => send("$pageleave", path);
  window.addEventListener("pagehide", onHide);
  return () => {
    window.removeEventListener("pagehide", onHide);
    send("$pageleave", path);
  };
}
