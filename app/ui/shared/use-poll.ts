// Pages that wait for work done in the background (an ad rendering, a store's first read) re-read their data on a
// timer. A revalidation started while the seller's own navigation or a form is under way restarts that navigation,
// and the browser logs the read it aborted; so the timer runs only while the page is otherwise idle.
import { useFetchers, useNavigation, useRevalidator } from "@remix-run/react";
import { useEffect } from "react";

/** Whether no navigation and no form of the page is under way: when a re-read interrupts nothing. */
export function usePageIdle(): boolean {
  const navigating = useNavigation().state !== "idle";
  const submitting = useFetchers().some((f) => f.state !== "idle");
  return !navigating && !submitting;
}

/** Re-reads the page's data every `ms` while `active`, and only while nothing else of the page is under way. */
export function useRevalidateEvery(active: boolean, ms: number): void {
  const revalidator = useRevalidator();
  const idle = usePageIdle();
  useEffect(() => {
    if (!active || !idle) return;
    const timer = setInterval(() => {
      if (revalidator.state === "idle") revalidator.revalidate();
    }, ms);
    return () => clearInterval(timer);
  }, [active, idle, ms, revalidator]);
}
