// What the measured catalogue is waiting for, as one sentence (issue 37, decision 091): the grid's "measured" view
// says it instead of "try other words" when it shows no or few products, and a store's page says its own share.
// Pure: no I/O, no clock (the time is passed in).

/** The catalogue's (or one store's) listings not fully in yet: counted by the catalogue service. */
export interface CataloguePending {
  /** Listings not yet in a product, or whose picture is still pending; and the stores they come from. */
  listingsBeingRead: number;
  stores: number;
  /** Pictures not in yet by why, with the earliest next try (null: due now). */
  pendingByReason: Array<{ reason: string; pictures: number; nextTryAt: string | null }>;
  /** Listings in a product without their picture (placed on their titles). */
  placedWithoutPicture: number;
}

const plural = (n: number, one: string, many = `${one}s`) => `${n.toLocaleString("en-US")} ${n === 1 ? one : many}`;

/** "10:05 UTC" on the same UTC day as now, "2026-12-08 10:05 UTC" on another. */
export function utcTime(at: string, now: Date): string {
  const iso = new Date(at).toISOString();
  return iso.slice(0, 10) === now.toISOString().slice(0, 10) ? `${iso.slice(11, 16)} UTC` : `${iso.slice(0, 16).replace("T", " ")} UTC`;
}

function reasons(pending: CataloguePending, now: Date): string {
  return pending.pendingByReason
    .map((r) => (r.nextTryAt && new Date(r.nextTryAt) > now ? `${r.reason}: next try ${utcTime(r.nextTryAt, now)}` : r.reason))
    .join("; ");
}

const pendingPictures = (pending: CataloguePending) => pending.pendingByReason.reduce((sum, r) => sum + r.pictures, 0);

/**
 * "12 listings from 4 stores are being read; 9 pictures pending (the picture's server could not be reached: next
 * try 10:05 UTC)". Null when nothing is pending and nothing is being read: the page's usual text stands.
 */
export function cataloguePendingSentence(pending: CataloguePending, now: Date): string | null {
  const pictures = pendingPictures(pending);
  if (pending.listingsBeingRead === 0 && pictures === 0) return null;
  const parts: string[] = [];
  if (pending.listingsBeingRead > 0) {
    parts.push(`${plural(pending.listingsBeingRead, "listing")} from ${plural(pending.stores, "store")} ${pending.listingsBeingRead === 1 ? "is" : "are"} being read`);
  }
  if (pictures > 0) parts.push(`${plural(pictures, "picture")} pending (${reasons(pending, now)})`);
  return `${capitalize(parts.join("; "))}.`;
}

/**
 * One store's line: "3 listings are placed without their pictures and 2 pictures are pending (the picture's server
 * could not be reached: next try 10:05 UTC)". Null when every listing of the store is in with its picture.
 */
export function storePendingSentence(pending: CataloguePending, now: Date): string | null {
  const pictures = pendingPictures(pending);
  const parts: string[] = [];
  if (pending.placedWithoutPicture > 0) {
    parts.push(`${plural(pending.placedWithoutPicture, "listing")} ${pending.placedWithoutPicture === 1 ? "is" : "are"} placed on ${pending.placedWithoutPicture === 1 ? "its title" : "their titles"} without ${pending.placedWithoutPicture === 1 ? "its picture" : "their pictures"}`);
  }
  if (pictures > 0) parts.push(`${plural(pictures, "picture")} ${pictures === 1 ? "is" : "are"} pending (${reasons(pending, now)})`);
  if (parts.length === 0) return null;
  return `${capitalize(parts.join(" and "))}.`;
}

const capitalize = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
