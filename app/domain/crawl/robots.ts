// robots.txt as RFC 9309 reads it (docs/decisions/088), for the competitor tracker's reads of rival stores.
// - Groups: one or more `user-agent` lines followed by rules; a `user-agent` line after a rule starts a new group.
//   Rules before any `user-agent` line belong to no group. Keys are case-insensitive; `#` starts a comment.
// - Which group: every group naming our product token (case-insensitive), merged; else every `*` group, merged;
//   else no rule at all (everything allowed).
// - Which rule: the longest pattern (in octets) that matches the path and query; an allow and a disallow of the
//   same length: allow. `*` matches any run of characters, a final `$` anchors the end. An empty `disallow` is no
//   rule. /robots.txt itself is always allowed.
// - Size: only the first ROBOTS_RULES.maxBytes (500 KiB, the RFC's minimum) are read; a line cut at that limit is
//   dropped, so a truncated file never turns half a rule into a different one.
// - Fetch outcomes (RFC 9309 2.3.1): 2xx parsed; 4xx (or redirects past the fetcher's limit) "no robots.txt"
//   (everything allowed); 5xx or unreachable: nothing may be read for now.
// `crawl-delay` is not in the RFC; when our group sets one we honour it as the gap between two requests, capped
// (ROBOTS_RULES.maxCrawlDelayMs), so a store cannot park us for hours with one line.
// Pure: the matcher walks the pattern with one backtracking point (no regular expression is built from the file),
// so a file full of wildcards costs at most pattern length x path length per rule.

export const ROBOTS_RULES = {
  /** Bytes of robots.txt we read (RFC 9309 2.5: at least 500 kibibytes). */
  maxBytes: 500 * 1024,
  /** A fetched robots.txt is used this long before it is fetched again (RFC 9309 2.4: at most 24 hours). */
  cacheMs: 24 * 60 * 60_000,
  /** A crawl-delay longer than this is read as this. */
  maxCrawlDelayMs: 60_000,
  /** Paths longer than this are matched on their first this-many characters. */
  maxPathLength: 4096,
} as const;

export interface RobotsRule {
  allow: boolean;
  /** The pattern, percent-encoding normalised (see normalisePath). */
  pattern: string;
}

/** The part of a robots.txt that applies to one product token: its rules, and its crawl-delay if any. */
export interface RobotsPolicy {
  /** "token": groups naming us; "*": the catch-all groups; "none": no group applies (everything allowed). */
  group: "token" | "*" | "none";
  rules: RobotsRule[];
  crawlDelayMs: number | null;
}

/** What we keep of a host's robots.txt between reads (JSON in the store row). */
export type RobotsRecord =
  | { kind: "parsed"; fetchedAt: string; policy: RobotsPolicy; truncated: boolean }
  /** 4xx: the site has no robots.txt for us; everything allowed. */
  | { kind: "missing"; fetchedAt: string; status: number }
  /** 5xx or unreachable: nothing may be read until it can be fetched again. */
  | { kind: "unreachable"; fetchedAt: string; status: number | null };

interface Group {
  agents: string[];
  rules: RobotsRule[];
  crawlDelayMs: number | null;
}

const HEX = /%([0-9a-fA-F]{2})/g;

/**
 * A path or pattern in one spelling: characters outside printable ASCII percent-encoded as UTF-8, existing
 * escapes upper-cased, and escapes of unreserved characters (letters, digits, - . _ ~) decoded, so "/caf%c3%a9",
 * "/café" and "/caf%C3%A9" compare equal, as RFC 9309 2.2.2 asks.
 */
export function normalisePath(text: string): string {
  let out = "";
  for (const ch of text) {
    const code = ch.codePointAt(0)!;
    if (code > 0x20 && code < 0x7f) {
      out += ch;
      continue;
    }
    for (const byte of utf8Bytes(ch)) out += `%${byte.toString(16).toUpperCase().padStart(2, "0")}`;
  }
  return out.replace(HEX, (_m, hex: string) => {
    const c = String.fromCharCode(parseInt(hex, 16));
    return /[A-Za-z0-9\-._~]/.test(c) ? c : `%${hex.toUpperCase()}`;
  });
}

function utf8Bytes(ch: string): number[] {
  const code = ch.codePointAt(0)!;
  if (code < 0x80) return [code];
  if (code < 0x800) return [0xc0 | (code >> 6), 0x80 | (code & 0x3f)];
  if (code < 0x10000) return [0xe0 | (code >> 12), 0x80 | ((code >> 6) & 0x3f), 0x80 | (code & 0x3f)];
  return [0xf0 | (code >> 18), 0x80 | ((code >> 12) & 0x3f), 0x80 | ((code >> 6) & 0x3f), 0x80 | (code & 0x3f)];
}

/** The product token of a user-agent line's value ("Googlebot/2.1 (+...)" -> "googlebot"), lower-cased. */
function agentToken(value: string): string {
  if (value.trim() === "*") return "*";
  // RFC 9309's product token is letters, "_" and "-"; digits are read too, as crawlers such as "MJ12bot" use them.
  return (/^[A-Za-z0-9_-]+/.exec(value.trim())?.[0] ?? "").toLowerCase();
}

/**
 * Parses the text of a robots.txt (already cut to ROBOTS_RULES.maxBytes by the caller, who says whether it was
 * cut) into its groups. Never throws; anything unreadable is skipped line by line.
 */
export function parseRobots(text: string, options: { truncated?: boolean } = {}): Group[] {
  let body = text.replace(/^\uFEFF/, "");
  if (options.truncated) {
    // The last line may be half a rule: drop it.
    const end = Math.max(body.lastIndexOf("\n"), body.lastIndexOf("\r"));
    body = end >= 0 ? body.slice(0, end) : "";
  }
  const groups: Group[] = [];
  let current: Group | null = null;
  let lastWasAgent = false;
  for (const raw of body.split(/\r\n|\r|\n/)) {
    const line = raw.replace(/#.*$/, "").trim();
    const colon = line.indexOf(":");
    if (colon <= 0) continue;
    const key = line.slice(0, colon).trim().toLowerCase().replace(/[\s_]+/g, "-");
    const value = line.slice(colon + 1).trim();
    if (key === "user-agent" || key === "useragent") {
      if (!current || !lastWasAgent) {
        current = { agents: [], rules: [], crawlDelayMs: null };
        groups.push(current);
      }
      const token = agentToken(value);
      if (token) current.agents.push(token);
      lastWasAgent = true;
      continue;
    }
    if (!current) continue;
    lastWasAgent = false;
    if (key === "allow" || key === "disallow") {
      if (value === "") continue;
      current.rules.push({ allow: key === "allow", pattern: normalisePath(value) });
    } else if (key === "crawl-delay") {
      const seconds = Number(value);
      if (Number.isFinite(seconds) && seconds >= 0) {
        const ms = Math.min(ROBOTS_RULES.maxCrawlDelayMs, Math.round(seconds * 1000));
        current.crawlDelayMs = Math.max(current.crawlDelayMs ?? 0, ms);
      }
    }
  }
  return groups;
}

/** The rules of a parsed robots.txt that apply to `token` (our User-Agent's product token). */
export function policyFor(groups: readonly Group[], token: string): RobotsPolicy {
  const ours = token.toLowerCase();
  const named = groups.filter((g) => g.agents.includes(ours));
  const chosen = named.length > 0 ? named : groups.filter((g) => g.agents.includes("*"));
  if (chosen.length === 0) return { group: "none", rules: [], crawlDelayMs: null };
  const delays = chosen.map((g) => g.crawlDelayMs).filter((d): d is number => d !== null);
  return {
    group: named.length > 0 ? "token" : "*",
    rules: chosen.flatMap((g) => g.rules),
    crawlDelayMs: delays.length > 0 ? Math.max(...delays) : null,
  };
}

/** Parses a robots.txt and picks our rules in one step. */
export function robotsPolicy(text: string, token: string, options: { truncated?: boolean } = {}): RobotsPolicy {
  return policyFor(parseRobots(text, options), token);
}

/**
 * Whether `pattern` (with `*` and a final `$`) matches the start of `path` (RFC 9309 2.2.2). Greedy with one
 * backtracking point: the classic wildcard walk, at most pattern x path steps, never exponential.
 */
export function patternMatches(pattern: string, path: string): boolean {
  const anchored = pattern.endsWith("$");
  const p = anchored ? pattern.slice(0, -1) : pattern;
  let i = 0; // in path
  let j = 0; // in pattern
  let starJ = -1;
  let starI = 0;
  for (;;) {
    if (j === p.length) {
      // The whole pattern matched a prefix; anchored patterns must also have consumed the path.
      if (!anchored || i === path.length) return true;
      if (starJ < 0) return false;
    } else if (p[j] === "*") {
      starJ = j++;
      starI = i;
      continue;
    } else if (i < path.length && p[j] === path[i]) {
      i++;
      j++;
      continue;
    } else if (starJ < 0) {
      return false;
    }
    // Let the last `*` take one more character and try again from there.
    if (starI >= path.length) return false;
    starI++;
    i = starI;
    j = starJ + 1;
  }
}

export interface RobotsVerdict {
  allowed: boolean;
  /** The rule that decided, or null when none matched (allowed). */
  rule: RobotsRule | null;
}

/** Whether a path (with its query) may be fetched under a policy: the longest matching rule decides; allow wins a tie. */
export function robotsVerdict(policy: Pick<RobotsPolicy, "rules">, pathAndQuery: string): RobotsVerdict {
  const path = normalisePath(pathAndQuery.slice(0, ROBOTS_RULES.maxPathLength));
  if (path === "/robots.txt") return { allowed: true, rule: null };
  let best: RobotsRule | null = null;
  for (const rule of policy.rules) {
    if (best && (rule.pattern.length < best.pattern.length || (rule.pattern.length === best.pattern.length && best.allow))) continue;
    if (!patternMatches(rule.pattern, path)) continue;
    best = rule;
  }
  return { allowed: best === null || best.allow, rule: best };
}

/** What a fetch of /robots.txt means (RFC 9309 2.3.1): 2xx parsed, 4xx everything allowed, else nothing for now. */
export function robotsRecordOf(
  answer: { status: number; text: string; truncated: boolean } | { status: null },
  token: string,
  fetchedAt: string,
): RobotsRecord {
  const status = answer.status;
  if (status === null || status >= 500 || status < 200) return { kind: "unreachable", fetchedAt, status };
  // 4xx, and a redirect the fetcher did not follow to the end (RFC 9309 2.3.1.2: "unavailable"): no rules.
  if (status >= 300) return { kind: "missing", fetchedAt, status };
  if (!("text" in answer)) return { kind: "unreachable", fetchedAt, status };
  return { kind: "parsed", fetchedAt, policy: robotsPolicy(answer.text, token, { truncated: answer.truncated }), truncated: answer.truncated };
}

/** Whether a kept record is still fresh at `nowMs` (fetched within ROBOTS_RULES.cacheMs, and not in the future). */
export function robotsFresh(record: RobotsRecord, nowMs: number, cacheMs: number = ROBOTS_RULES.cacheMs): boolean {
  const at = Date.parse(record.fetchedAt);
  return Number.isFinite(at) && at <= nowMs && nowMs - at < cacheMs;
}

/** May `pathAndQuery` be requested under this record? An unreachable robots.txt allows nothing but itself. */
export function recordAllows(record: RobotsRecord, pathAndQuery: string): RobotsVerdict {
  if (record.kind === "missing") return { allowed: true, rule: null };
  if (record.kind === "unreachable") return { allowed: pathAndQuery === "/robots.txt", rule: null };
  return robotsVerdict(record.policy, pathAndQuery);
}
