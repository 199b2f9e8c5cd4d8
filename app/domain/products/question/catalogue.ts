// Which products: the measured catalogue or the sample data, the stores that added them this week, and when
// they were first seen.
import { take, type Reading } from "./reading";

/** 4a. The measured catalogue: "measured products", "added by stores this week", "added by 3+ stores this week". */
export function readCatalogue(r: Reading): void {
  const { w, f } = r;
  take(w, /\bmeasured(?:\s+(?:products?|items?|data|catalogue|catalog))?\b|\b(?:from|in|by) real stores\b/, () => {
    f.source = "measured";
  });
  take(w, /\bsample\s+(?:data|products?)\b/, () => {
    f.source = "sample";
  });
  take(
    w,
    new RegExp(String.raw`\b(?:added|picked up|adopted|listed)\s+by\s+(?:(?:at least|more than|over|min(?:imum)?(?: of)?)\s+)?(?:(\d{1,6})(?:\s?\+|\s+or more|\s+and up)?\s+)?(?:new\s+)?(?:stores?|shops?|sellers)(?:\s+(?:or more|and up|plus))?\s+(?:this|last|past|in the last)\s+(?:week|7 days)\b`),
    (m) => {
      f.minStoresAdded7d = m[1] !== undefined ? Math.max(1, Number(m[1])) : 1;
      f.sort ??= "storesAdded7d";
      w.notes.push("“Added by stores this week” counts the stores we observe that listed it in the last 7 days: only measured products have that figure.");
    },
  );
}

/** 4. When first seen: "new this week", "added in the last 30 days". */
export function readFirstSeen(r: Reading): void {
  const { w, f } = r;
  take(w, /\b(?:new|added|first seen|launched|appeared|listed|discovered)\s+(?:in\s+)?(?:the\s+)?(?:last|past)\s+(\d{1,4})\s+(days?|weeks?|months?)\b/, (m) => {
    const n = Number(m[1]);
    const days = m[2].startsWith("week") ? n * 7 : m[2].startsWith("month") ? n * 30 : n;
    if (days >= 1 && days <= 3650) f.firstSeenDays = days;
  });
  take(w, /\b(?:(?:new|added|first seen|launched|appeared|listed)\s+)(?:this|last|past)\s+(week|month|year)\b|\b(?:this|last|past)\s+(week|month)'?s?\s+(?:new|additions|launches)\b/, (m) => {
    const unit = m[1] ?? m[2];
    f.firstSeenDays = unit === "week" ? 7 : unit === "month" ? 30 : 365;
  });
}
