// Matching listings into measured products (docs/decisions/046). This module owns the CatalogueMember rows
// (which product a listing is in, with the evidence) and the CatalogueDecision rows (an operator's splits and
// merges). The rules are app/domain/catalogue/match.ts; this is the I/O around them:
// - every fingerprinted listing is read (listings.server.ts) and indexed by its picture hash (HashIndex:
//   candidates come from the index, never from all pairs);
// - a picture that many listings share under unrelated titles is marked as no evidence (pictureIsEvidence);
// - listings are placed in a fixed order (first seen, then id), the operator's decisions applied, and the
//   result written: each product is named after its anchor listing ("measured-{listingId}"), members whose
//   product or evidence changed are rewritten, products that no longer exist are deleted;
// - the state stays in memory between runs of this process: when the only news is new listings (a store's
//   first read), they are placed into it incrementally, which gives the same products as a full run would.
//   Anything else (a changed picture, a removed listing's fingerprint, a new decision) rebuilds it.
// The keyed "catalogue.pictures" job (catalogue.server.ts) runs it after its pictures, one at a time across processes.
import { retryBusy, type Db, type SqlReader } from "~/db.server";
import { HashIndex, hammingDistance, parseHash, REBUILD_AFTER, type Hash64 } from "~/domain/catalogue/hash";
import { listingTraits, siblingWords, titleMarks, type SiblingWords } from "~/domain/catalogue/look-alike";
import { ClusterState, keptApartByTraits, MATCH, pictureIsEvidence, type Cluster, type ClusterInput } from "~/domain/catalogue/match";
import { usdCentsOf } from "~/domain/catalogue/prices";
import { normaliseTitle } from "~/domain/catalogue/title";
import type { RateTable } from "~/domain/landed-cost/exchange-rates";
import { AppError } from "~/domain/errors";
import { readMatchListings, type MatchListing } from "~/services/catalogue/listings.server";
import { readUnpicturedListings, TitlePlacement, type UnpicturedListing } from "~/services/catalogue/unpictured.server";
import { currentRateTable } from "~/services/landed-cost/exchange-rates.server";

export const measuredObjectId = (anchorListingId: number) => `measured-${anchorListingId}`;

/** Products or members written per statement. */
const WRITE_CHUNK = 500;

export interface MatchSummary {
  mode: "full" | "incremental";
  listings: number;
  products: number;
  /** Products whose members or evidence changed (their rows and signals are recomputed). */
  changed: string[];
  removed: number;
  stockPictures: number;
  /** Listings placed without a picture, on their titles (decision 091). */
  withoutPicture: number;
  ms: number;
}

interface MatchState {
  index: HashIndex;
  hashes: Map<number, Hash64>;
  hashText: Map<number, string>;
  inputs: Map<number, ClusterInput>;
  clusters: ClusterState;
  decisions: string;
  /** The reference rates prices in different currencies were compared at (decision 089). */
  rates: RateTable;
  stockPictures: number;
  /** Words stores use to tell their own listings apart (decision 087), learned from every listing at the build. */
  siblings: SiblingWords;
  /** The last listing in the order (first seen, then id) placed so far. */
  last: { firstSeenAt: number; id: number };
  /** Listings placed without a picture, and the title index they are placed with (null when there were none). */
  titles: TitlePlacement | null;
}

export interface CatalogueMatchingDeps {
  db: Db;
  sql: SqlReader;
  now: () => Date;
}

function lastOf(listings: Array<MatchListing | UnpicturedListing>, from = { firstSeenAt: -Infinity, id: -Infinity }): { firstSeenAt: number; id: number } {
  let last = from;
  for (const l of listings) if (l.firstSeenAt > last.firstSeenAt || (l.firstSeenAt === last.firstSeenAt && l.id > last.id)) last = { firstSeenAt: l.firstSeenAt, id: l.id };
  return last;
}

/** Whether a title names two words known as siblings (decision 087: such words, named together, are not siblings). */
function namesSiblingsTogether(words: readonly string[], siblings: SiblingWords): boolean {
  for (const x of words) {
    const known = siblings.get(x);
    if (known && words.some((y) => y !== x && known.has(y))) return true;
  }
  return false;
}

function orderOf<T extends MatchListing | UnpicturedListing>(listings: T[]): T[] {
  return [...listings].sort((a, b) => a.firstSeenAt - b.firstSeenAt || a.id - b.id);
}

export function createCatalogueMatching(deps: CatalogueMatchingDeps) {
  const { db, sql, now } = deps;
  let state: MatchState | null = null;

  async function readDecisions() {
    const rows = await db.catalogueDecision.findMany({ orderBy: { id: "asc" }, select: { id: true, kind: true, listingA: true, listingB: true } });
    return {
      key: rows.map((r) => r.id).join(","),
      apart: rows.filter((r) => r.kind === "apart").map((r) => [r.listingA, r.listingB] as [number, number]),
      together: rows.filter((r) => r.kind === "together").map((r) => [r.listingA, r.listingB] as [number, number]),
    };
  }

  /** A listing's price as matching compares it across stores: with its store, and in dollars at the table's rate (decision 089). */
  function priceOf(l: MatchListing | UnpicturedListing, rates: RateTable) {
    const usdCents = usdCentsOf(l.priceCents, l.currency, rates);
    return { priceCents: l.priceCents, currency: l.currency, storeId: l.storeId, usdCents, ...(usdCents !== null && l.currency !== "USD" ? { rateDate: rates.date } : {}) };
  }

  function inputOf(l: MatchListing, siblings: SiblingWords, rates: RateTable): ClusterInput {
    const title = normaliseTitle(l.title);
    const traits = listingTraits(l.title, title, { storeId: l.storeId, vendor: l.vendor, variants: l.variants, options: l.options }, siblings);
    return { id: l.id, title, ...priceOf(l, rates), pictureIsEvidence: true, traits };
  }

  function learnSiblings(listings: MatchListing[]): SiblingWords {
    return siblingWords(
      listings.map((l) => {
        const title = normaliseTitle(l.title);
        return { storeId: l.storeId, words: title.words, marks: titleMarks(l.title, title), picture: parseHash(l.hash) };
      }),
    );
  }

  /** Marks the listings whose picture many unrelated listings share; returns how many pictures that is. */
  function markStockPictures(s: MatchState, ids: Iterable<number>): number {
    let stock = 0;
    // One judgement per group of near pictures: a listing already seen in a judged group is not judged again.
    const judged = new Set<number>();
    for (const id of ids) {
      if (judged.has(id)) continue;
      const near = s.index.near(s.hashes.get(id)!, MATCH.strongDistance);
      for (const n of near) judged.add(n.id);
      if (near.length < MATCH.stockPictureMinListings) continue;
      const evidence = pictureIsEvidence(near.map((n) => s.inputs.get(n.id)!.title));
      if (!evidence) {
        stock++;
        for (const n of near) s.inputs.get(n.id)!.pictureIsEvidence = false;
      }
    }
    return stock;
  }

  /** A listing without a picture as matching sees it: its title and price (decision 091). */
  function unpicturedInput(l: UnpicturedListing, rates: RateTable): ClusterInput {
    return { id: l.id, title: normaliseTitle(l.title), ...priceOf(l, rates), pictureIsEvidence: false };
  }

  /** Places listings in the order (first seen, then id): by picture when they have one, else by title. */
  function placeAll(s: MatchState, pictured: MatchListing[], unpictured: UnpicturedListing[]): void {
    for (const l of orderOf<MatchListing | UnpicturedListing>([...pictured, ...unpictured])) {
      const input = s.inputs.get(l.id);
      if (input && s.hashes.has(l.id)) s.clusters.place(input);
      else if (!("hash" in l) && s.titles) {
        const unpicturedOne = unpicturedInput(l, s.rates);
        s.inputs.set(l.id, unpicturedOne);
        s.titles.vendor(l.id, l.vendor);
        s.titles.place(s.clusters, unpicturedOne, keptApartByTraits);
      }
    }
  }

  function build(listings: MatchListing[], unpictured: UnpicturedListing[], decisions: Awaited<ReturnType<typeof readDecisions>>, rates: RateTable): MatchState {
    const index = new HashIndex(Math.max(1024, listings.length));
    const hashes = new Map<number, Hash64>();
    const hashText = new Map<number, string>();
    const inputs = new Map<number, ClusterInput>();
    const siblings = learnSiblings(listings);
    for (const l of listings) {
      const hash = parseHash(l.hash);
      if (!hash) continue;
      index.add(l.id, hash);
      hashes.set(l.id, hash);
      hashText.set(l.id, l.hash);
      inputs.set(l.id, inputOf(l, siblings, rates));
    }
    index.build();
    // Look-ups during placement go to a second index of placed listings (at most MATCH.indexedPerProduct a product).
    const placed = new HashIndex(Math.max(1024, listings.length >> 2));
    // The title index exists only when some listing has no picture (a million pictured listings need none).
    const titles = unpictured.length > 0 ? new TitlePlacement() : null;
    if (titles) for (const l of listings) titles.vendor(l.id, l.vendor);
    const clusters = new ClusterState(
      (id, radius) => placed.near(hashes.get(id)!, radius),
      // A listing without a picture is as far as can be from every picture.
      (a, b) => (hashes.has(a) && hashes.has(b) ? hammingDistance(hashes.get(a)!, hashes.get(b)!) : 64),
      decisions,
      (id, cluster) => {
        const hash = hashes.get(id);
        if (hash && cluster.members.length <= MATCH.indexedPerProduct) placed.add(id, hash);
        if (placed.unbuilt >= REBUILD_AFTER) placed.build();
        if (titles) titles.placed(inputs.get(id)!);
      },
    );
    const s: MatchState = { index, hashes, hashText, inputs, clusters, decisions: decisions.key, rates, stockPictures: 0, siblings, last: lastOf(unpictured, lastOf(listings)), titles };
    s.stockPictures = markStockPictures(s, hashes.keys());
    placeAll(s, listings, unpictured);
    for (const [a, b] of decisions.together) clusters.merge(a, b);
    return s;
  }

  /** Places new listings into the kept state; false when the state cannot be extended (rebuild instead). */
  function extend(s: MatchState, listings: MatchListing[], unpictured: UnpicturedListing[], decisions: Awaited<ReturnType<typeof readDecisions>>, rates: RateTable): boolean {
    if (s.decisions !== decisions.key) return false;
    // A newer table of reference rates changes every converted price: rebuild.
    if (s.rates.date !== rates.date || s.rates.source !== rates.source) return false;
    // A listing placed without a picture that has one now, or that went away, is placed again: rebuild.
    const freshUnpictured = unpictured.filter((l) => !s.titles?.ids.has(l.id));
    if (unpictured.length - freshUnpictured.length !== (s.titles?.ids.size ?? 0)) return false;
    if (freshUnpictured.length > 0 && !s.titles) return false;
    const fresh: MatchListing[] = [];
    let known = 0;
    for (const l of listings) {
      const had = s.hashText.get(l.id);
      if (had === undefined) fresh.push(l);
      else if (had !== l.hash) return false;
      else known++;
    }
    if (known !== s.hashText.size) return false; // a fingerprint went away
    // New listings must come after every placed one in the order (first seen, then id), or a full run would
    // place them differently. A store's new read is newer than everything before it, so this is the usual case.
    const last = s.last;
    if ([...fresh, ...freshUnpictured].some((l) => l.firstSeenAt < last.firstSeenAt || (l.firstSeenAt === last.firstSeenAt && l.id < last.id))) return false;
    // Sibling words are learned per store: a new listing that teaches its store's catalogue a new pair would have
    // kept listings apart in a full run, so the state is rebuilt.
    const freshStores = new Set(fresh.map((l) => l.storeId));
    const learned = learnSiblings(listings.filter((l) => freshStores.has(l.storeId)));
    for (const [word, others] of learned) for (const other of others) if (!s.siblings.get(word)?.has(other)) return false;
    // ... and one whose title names both words of a known sibling pair may make them one name's parts: rebuild.
    if (fresh.some((l) => namesSiblingsTogether(normaliseTitle(l.title).words, s.siblings))) return false;
    for (const l of fresh) {
      const hash = parseHash(l.hash);
      if (!hash) continue;
      s.index.add(l.id, hash);
      s.hashes.set(l.id, hash);
      s.hashText.set(l.id, l.hash);
      s.inputs.set(l.id, inputOf(l, s.siblings, s.rates));
    }
    // A new listing that makes a picture a stock picture changes listings already placed: rebuild.
    if (markStockPictures(s, fresh.map((l) => l.id)) > 0) return false;
    if (s.titles) for (const l of fresh) s.titles.vendor(l.id, l.vendor);
    placeAll(s, fresh, freshUnpictured);
    s.last = lastOf(freshUnpictured, lastOf(fresh, s.last));
    if (s.index.unbuilt > 50_000) s.index.build();
    return true;
  }

  /** Writes the products and members that differ from what is stored; returns the changed and removed products. */
  async function write(clusters: Cluster[]): Promise<{ changed: string[]; removed: number }> {
    const stored = await db.catalogueMember.findMany({ select: { listingId: true, via: true, evidence: true, product: { select: { objectID: true } } } });
    const storedOf = new Map(stored.map((m) => [m.listingId, m]));
    // A product that lost a member (an operator's split, a listing placed again) is changed too: its title, price
    // and stores selling are recomputed though every member it kept is as it was (decision 091).
    const storedCount = new Map<string, number>();
    for (const m of stored) storedCount.set(m.product.objectID, (storedCount.get(m.product.objectID) ?? 0) + 1);
    const existing = await db.product.findMany({ where: { source: "measured" }, select: { id: true, objectID: true } });
    const productIds = new Map(existing.map((p) => [p.objectID, p.id]));
    const wanted = new Set<string>();
    const changed: string[] = [];
    const rowsOf = new Map<string, Array<{ listingId: number; via: string; evidence: string | null }>>();
    const at = now();
    for (const cluster of clusters) {
      const objectID = measuredObjectId(cluster.anchorId);
      wanted.add(objectID);
      const rows = cluster.members.map((m) => ({
        listingId: m.id,
        via: m.via,
        evidence: m.evidence ? JSON.stringify(m.evidence) : null,
      }));
      const same =
        productIds.has(objectID) &&
        storedCount.get(objectID) === rows.length &&
        rows.every((r) => {
          const s = storedOf.get(r.listingId);
          return s && s.product.objectID === objectID && s.via === r.via && s.evidence === r.evidence;
        });
      if (same) continue;
      changed.push(objectID);
      rowsOf.set(objectID, rows);
    }
    // Written in chunks, never a statement or a transaction per product: each transaction takes a fresh connection
    // (db.server.ts), and a first match of 10,000 listings without pictures makes thousands of products at once.
    const missing = changed.filter((o) => !productIds.has(o));
    for (let i = 0; i < missing.length; i += WRITE_CHUNK) {
      for (const [objectID, id] of await createPlaceholders(missing.slice(i, i + WRITE_CHUNK), at)) productIds.set(objectID, id);
    }
    const members = changed.flatMap((objectID) => rowsOf.get(objectID)!.map((r) => ({ ...r, productId: productIds.get(objectID)!, matchedAt: at })));
    for (let i = 0; i < members.length; i += WRITE_CHUNK) {
      const chunk = members.slice(i, i + WRITE_CHUNK);
      await retryBusy(() =>
        db.$transaction([
          db.catalogueMember.deleteMany({ where: { listingId: { in: chunk.map((m) => m.listingId) } } }),
          db.catalogueMember.createMany({ data: chunk }),
        ]),
      );
    }
    const gone = existing.filter((p) => !wanted.has(p.objectID)).map((p) => p.id);
    for (let i = 0; i < gone.length; i += 500) {
      await retryBusy(() => db.product.deleteMany({ where: { id: { in: gone.slice(i, i + 500) }, source: "measured" } }));
    }
    // Members whose listing lost its fingerprint (no longer in any cluster) are dropped.
    const placed = new Set(clusters.flatMap((c) => c.members.map((m) => m.id)));
    const orphans = stored.filter((m) => !placed.has(m.listingId)).map((m) => m.listingId);
    for (let i = 0; i < orphans.length; i += 500) {
      await retryBusy(() => db.catalogueMember.deleteMany({ where: { listingId: { in: orphans.slice(i, i + 500) } } }));
    }
    return { changed, removed: gone.length };
  }

  /** An empty measured product that materialise() fills in, in the same run. */
  function placeholder(objectID: string, at: Date) {
    return {
      objectID,
      title: "",
      description: "",
      niches: "[]",
      primaryNiche: "general",
      tags: "[]",
      images: "[]",
      priceCents: 0,
      orders: 0,
      revenueCents: 0,
      likes: 0,
      comments: 0,
      shares: 0,
      views: 0,
      storesSelling: 0,
      firstSeenAt: at,
      lastUpdatedAt: at,
      randomSortKey: 0,
      winningScore: 0,
      lifecycleStage: "emerging",
      saturation: 0,
      orders7d: 0,
      trendingScore: 0,
      reasons: "[]",
      insightsAt: at,
      source: "measured",
    };
  }

  /**
   * Placeholder products for these objectIDs, made in one statement; their ids by objectID. Should another process
   * have made one of them meanwhile (the match job runs one at a time, so rarely), each is made or found alone.
   */
  async function createPlaceholders(objectIDs: string[], at: Date): Promise<Map<string, number>> {
    try {
      await retryBusy(() => db.product.createMany({ data: objectIDs.map((o) => placeholder(o, at)) }));
    } catch (error) {
      if ((error as { code?: string }).code !== "P2002") throw error;
      for (const objectID of objectIDs) {
        await retryBusy(() => db.product.upsert({ where: { objectID }, create: placeholder(objectID, at), update: {}, select: { id: true } }));
      }
    }
    const rows = await db.product.findMany({ where: { objectID: { in: objectIDs } }, select: { id: true, objectID: true } });
    return new Map(rows.map((r) => [r.objectID, r.id]));
  }

  /** Matches every fingerprinted listing; `full` forces a rebuild of the kept state. */
  async function run(options: { full?: boolean } = {}): Promise<MatchSummary> {
    const started = Date.now();
    const listings = await readMatchListings(sql);
    const unpictured = await readUnpicturedListings(sql);
    const decisions = await readDecisions();
    const rates = await currentRateTable(db);
    let mode: MatchSummary["mode"] = "incremental";
    if (options.full || !state || !extend(state, listings, unpictured, decisions, rates)) {
      state = build(listings, unpictured, decisions, rates);
      mode = "full";
    }
    const { changed, removed } = await write(state.clusters.clusters);
    return {
      mode,
      listings: state.hashes.size + (state.titles?.ids.size ?? 0),
      withoutPicture: state.titles?.ids.size ?? 0,
      products: state.clusters.clusters.length,
      changed,
      removed,
      stockPictures: state.stockPictures,
      ms: Date.now() - started,
    };
  }

  /** An operator's split: the listing never again shares a product with the listings it is with now. */
  async function split(listingId: number, note = ""): Promise<{ apart: number }> {
    const member = await db.catalogueMember.findUnique({ where: { listingId }, select: { productId: true } });
    if (!member) throw new AppError(404, `Listing ${listingId} is not in any measured product.`);
    const others = await db.catalogueMember.findMany({ where: { productId: member.productId, listingId: { not: listingId } }, select: { listingId: true } });
    if (others.length === 0) throw new AppError(409, `Listing ${listingId} is already a product of its own.`);
    await retryBusy(() =>
      db.$transaction(
        others.map((o) =>
          db.catalogueDecision.upsert({
            where: { kind_listingA_listingB: { kind: "apart", listingA: listingId, listingB: o.listingId } },
            create: { kind: "apart", listingA: listingId, listingB: o.listingId, note },
            update: {},
            select: { id: true },
          }),
        ),
      ),
    );
    return { apart: others.length };
  }

  /** An operator's merge: the two listings' products are one from now on (unless a split keeps them apart). */
  async function merge(listingA: number, listingB: number, note = ""): Promise<void> {
    if (listingA === listingB) throw new AppError(400, "Pick two different listings to merge.");
    const found = await db.catalogueMember.count({ where: { listingId: { in: [listingA, listingB] } } });
    if (found < 2) throw new AppError(404, "Both listings must be in measured products to be merged.");
    const [a, b] = listingA < listingB ? [listingA, listingB] : [listingB, listingA];
    await retryBusy(() =>
      db.catalogueDecision.upsert({
        where: { kind_listingA_listingB: { kind: "together", listingA: a, listingB: b } },
        create: { kind: "together", listingA: a, listingB: b, note },
        update: {},
        select: { id: true },
      }),
    );
  }

  return { run, split, merge };
}

export type CatalogueMatching = ReturnType<typeof createCatalogueMatching>;
