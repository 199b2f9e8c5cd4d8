// The AI ads page's data as the browser gets it from the loader (app/pages/ai-ads/ai-ads.server.ts), and the
// pieces of it the page's parts pass each other.
import type { SerializeFrom } from "@remix-run/node";
import type { useFetcher } from "@remix-run/react";
import type { AiAdsActionResult, loadAiAdsPage } from "~/pages/ai-ads/ai-ads.server";

export type AiAdsPageData = SerializeFrom<typeof loadAiAdsPage>;

/** A brand kit an ad may render with (decision 033). */
export type KitChoice = AiAdsPageData["brandKits"][number];

/** One of the editor's forms (save, preview, render, delete) with the action's answer to it. */
export type AdFetcher = ReturnType<typeof useFetcher<AiAdsActionResult>>;
