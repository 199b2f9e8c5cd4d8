// Weekly product drops (docs/decisions/030): the pure rules. What a drop date is, when the next one falls,
// which products the weekly pick takes (the week's best by winning score, with variety across niches and
// nothing from the last drops) and the short reason each product carries, built only from the product's own
// evidence (its score reasons, its stage, its margin): never an invented claim.

export const DROP_RULES = {
  /** A drop holds 8 to 20 products, whoever makes it. */
  minProducts: 8,
  maxProducts: 20,
  /** How many the weekly pick aims for. */
  weeklyProducts: 12,
  /** At most this many products of one primary niche in a weekly pick. */
  perNiche: 2,
  /** A product shown in one of the last this-many drops is not picked again. */
  noRepeatDrops: 4,
  /** Drops fall on this UTC weekday (0 Sunday ... 1 Monday). */
  weekday: 1,
  /** Stages the weekly pick leaves out: a declining product is not this week's find. */
  skippedStages: ["declining"] as readonly string[],
  /** An operator's own reason is cut to this length. */
  maxReasonLength: 200,
  /**
   * The weekly pick ranks by winning score plus up to this many points drawn from the drop date and the
   * product (the same for everyone, new each week), so a drop is a fresh mix of strong products rather
   * than the grid's order (issue 25).
   */
  weeklyJitter: 25,
} as const;

const DAY_MS = 86_400_000;
const DATE_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;

/** The date if `text` is a real calendar day written YYYY-MM-DD, else null. */
export function parseDropDate(text: string | null | undefined): string | null {
  if (typeof text !== "string") return null;
  const m = DATE_PATTERN.exec(text);
  if (!m) return null;
  const ms = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
  return new Date(ms).toISOString().slice(0, 10) === text ? text : null;
}

export const BAD_DATE_SENTENCE = "A drop date is written YYYY-MM-DD, a real calendar day (for example 2026-11-23).";

/** The UTC day of an instant, YYYY-MM-DD. */
export function dropDay(at: Date): string {
  return at.toISOString().slice(0, 10);
}

function addDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
}

/** The first drop weekday strictly after `date`. */
export function nextDropDateAfter(date: string, weekday: number = DROP_RULES.weekday): string {
  const dow = new Date(`${date}T00:00:00Z`).getUTCDay();
  const ahead = ((weekday - dow + 7) % 7) || 7;
  return addDays(date, ahead);
}

/** The latest drop weekday on or before `date` (`date` itself on a drop day). */
export function latestDropDateOnOrBefore(date: string, weekday: number = DROP_RULES.weekday): string {
  const dow = new Date(`${date}T00:00:00Z`).getUTCDay();
  return addDays(date, -((dow - weekday + 7) % 7));
}

/** The drop weekday on or after `date`. */
export function dropDateOnOrAfter(date: string, weekday: number = DROP_RULES.weekday): string {
  return nextDropDateAfter(addDays(date, -1), weekday);
}

/**
 * The next drop date to show: the stored one while it has not passed, else the next drop weekday from
 * today (the weekly job had not run yet).
 */
export function effectiveNextDropDate(stored: string | null, today: string): string {
  return stored !== null && stored >= today ? stored : dropDateOnOrAfter(today);
}

/** Whole days, hours and minutes until 00:00 UTC of `date` (never negative), for the countdown. */
export function countdownTo(date: string, now: Date): { ms: number; days: number; hours: number; minutes: number } {
  const ms = Math.max(0, Date.parse(`${date}T00:00:00Z`) - now.getTime());
  return {
    ms,
    days: Math.floor(ms / DAY_MS),
    hours: Math.floor((ms % DAY_MS) / 3_600_000),
    minutes: Math.floor((ms % 3_600_000) / 60_000),
  };
}

/** "in 3 days 4 hours", "in 5 hours 2 minutes", "today". */
export function countdownText(date: string, now: Date): string {
  const { ms, days, hours, minutes } = countdownTo(date, now);
  if (ms === 0) return "today";
  const unit = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;
  if (days > 0) return `in ${unit(days, "day")}${hours > 0 ? ` ${unit(hours, "hour")}` : ""}`;
  if (hours > 0) return `in ${unit(hours, "hour")}${minutes > 0 ? ` ${unit(minutes, "minute")}` : ""}`;
  return `in ${unit(Math.max(1, minutes), "minute")}`;
}

/** What the reason is built from: the product's stored evidence. */
export interface DropEvidence {
  winningScore: number;
  lifecycleStage: string;
  /** The gross margin, basis points (6200 = 62%); null when the product's cost is unknown. */
  marginBps: number | null;
  /**
   * The margin after duty and Shopify Payments' fees (issue 24; the guessed HTS code and origin, the layers of the
   * publish day); null when the cost is unknown or no duty rate is loaded for the code.
   */
  landedMarginBps?: number | null;
  /** The three score reasons of app/domain/products/insights.ts (a measured product: of catalogue-signals.ts), in words. */
  reasons: readonly string[];
  /** Product.source: "measured" says its score comes from store counts. */
  source?: string;
}

const STAGE_WORDS: Record<string, string> = {
  emerging: "Emerging",
  rising: "Rising",
  peak: "At its peak",
  declining: "Declining",
};

/**
 * "Rising, winning score 87: orders +48% in 7 days; 1,200 orders in 30 days; margin after duty and fees 42%": the
 * stage, the score and its first two reasons (a score reason quoting the gross margin left out), then the margin
 * after duty and fees, or "cost unknown: add your cost". Every figure is the product's own.
 */
export function dropReason(p: DropEvidence): string {
  const stage = STAGE_WORDS[p.lifecycleStage] ?? p.lifecycleStage;
  const parts = p.reasons.filter((r) => r.trim() !== "" && !/^margin \d/.test(r)).slice(0, 2);
  const landed = p.landedMarginBps ?? null;
  if (landed !== null) parts.push(`margin after duty and fees ${Math.round(landed / 100)}%`);
  else if (p.marginBps === null) parts.push("cost unknown: add your cost");
  else parts.push(`margin ${Math.round(p.marginBps / 100)}% before duty (no duty rate for its code)`);
  // A measured product's score is derived from the stores that sell it, and its reasons say so (docs/decisions/046).
  const score = p.source === "measured" ? `winning score ${p.winningScore} (from store counts)` : `winning score ${p.winningScore}`;
  return `${stage}, ${score}: ${parts.join("; ")}`;
}

/** An operator's reason as kept: trimmed, one line, at most maxReasonLength characters; null when empty. */
export function operatorReason(text: string | null | undefined): string | null {
  const flat = (text ?? "").replace(/\s+/g, " ").trim();
  if (flat === "") return null;
  return flat.length > DROP_RULES.maxReasonLength ? `${flat.slice(0, DROP_RULES.maxReasonLength - 1)}…` : flat;
}

/** A candidate of the weekly pick. */
export interface DropCandidate {
  id: number;
  /** Two products with the same title (case and spacing aside) never share a drop. */
  title: string;
  primaryNiche: string;
  winningScore: number;
  lifecycleStage: string;
  /** Breaks ties between equal scores: the busier week first. */
  orders7d: number;
}

/** 0..weeklyJitter points for a product in the drop of `date`: a hash of both (FNV-1a), the same on every run. */
export function weeklyJitter(date: string, id: number): number {
  let h = 0x811c9dc5;
  const text = `${date}:${id}`;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return h % (DROP_RULES.weeklyJitter + 1);
}

/**
 * The weekly pick: the best by winning score (plus the week's jitter when `date` is given; ties: more
 * orders in 7 days, then the lower id), skipping products of the recent drops, `leaveOut` (the grid's first
 * page: a seller has already seen those), skipped stages and a title already picked, at most `perNiche` of
 * one primary niche, up to `count`. Returns fewer than minProducts when the catalogue cannot fill a drop;
 * the caller refuses that.
 */
export function pickWeekly(
  candidates: readonly DropCandidate[],
  recentlyShown: ReadonlySet<number>,
  options: { count?: number; perNiche?: number; date?: string; leaveOut?: ReadonlySet<number> } = {},
): DropCandidate[] {
  const count = Math.min(options.count ?? DROP_RULES.weeklyProducts, DROP_RULES.maxProducts);
  const perNiche = options.perNiche ?? DROP_RULES.perNiche;
  const key = (c: DropCandidate) => c.winningScore + (options.date ? weeklyJitter(options.date, c.id) : 0);
  const ranked = [...candidates].sort((a, b) => key(b) - key(a) || b.orders7d - a.orders7d || a.id - b.id);
  const titles = new Set<string>();
  const perNicheTaken = new Map<string, number>();
  const seen = new Set<number>();
  const picked: DropCandidate[] = [];
  for (const c of ranked) {
    if (picked.length >= count) break;
    if (seen.has(c.id) || recentlyShown.has(c.id) || options.leaveOut?.has(c.id) || DROP_RULES.skippedStages.includes(c.lifecycleStage)) continue;
    const title = c.title.toLowerCase().replace(/\s+/g, " ").trim();
    if (titles.has(title)) continue;
    const taken = perNicheTaken.get(c.primaryNiche) ?? 0;
    if (taken >= perNiche) continue;
    perNicheTaken.set(c.primaryNiche, taken + 1);
    titles.add(title);
    seen.add(c.id);
    picked.push(c);
  }
  return picked;
}
