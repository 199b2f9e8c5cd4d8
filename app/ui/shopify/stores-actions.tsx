// How the Stores & themes components change things: plain fetch() to the JSON API, then the page's
// loaders run again. On the site the session cookie goes along; inside Shopify admin App Bridge adds the
// session token as a bearer token to same-origin fetches, so both surfaces use the same calls.
import { useRevalidator } from "@remix-run/react";
import { useCallback, useState } from "react";

export interface JsonResult<T = unknown> {
  ok: boolean;
  status: number;
  data: T & { error?: string };
}

export function useJsonCall() {
  const revalidator = useRevalidator();
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  const call = useCallback(
    async <T,>(key: string, method: string, url: string, body?: unknown): Promise<JsonResult<T>> => {
      setBusy(key);
      setError(null);
      try {
        const response = await fetch(url, {
          method,
          headers:
            body === undefined
              ? { accept: "application/json" }
              : { "content-type": "application/json", accept: "application/json" },
          body: body === undefined ? undefined : JSON.stringify(body),
        });
        const data = (await response.json().catch(() => ({}))) as T & { error?: string };
        if (!response.ok) setError(data.error ?? `The request failed (${response.status}).`);
        else revalidator.revalidate();
        return { ok: response.ok, status: response.status, data };
      } catch {
        setError("The request did not reach the server. Check your connection and try again.");
        return { ok: false, status: 0, data: {} as T & { error?: string } };
      } finally {
        setBusy(null);
      }
    },
    [revalidator],
  );

  return { call, busy, error, clearError: () => setError(null) };
}
