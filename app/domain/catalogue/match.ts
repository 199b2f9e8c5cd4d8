// When two store listings are one product, and how listings group into products without chaining
// (docs/decisions/046-measured-catalogue.md). Every number here is a threshold the decision explains and the
// labelled set in tests/unit/catalogue/catalogue-match.test.ts (and the simulator of `npm run bench -- catalogue`) tunes.
//
// A pair matches when
// - the pictures are near: at most MATCH.maxDistance of 64 bits differ (at most MATCH.strongDistance counts as
//   "the same picture"; further needs the titles to agree: MATCH.minTitleOverlapWhenFar of the shorter title's
//   words shared);
// - the titles do not contradict: no quantity or model stated differently, and at least one content word shared
//   when both titles have words (a picture alone never makes "Dog bed" and "Phone case" one product);
// - the prices do not contradict: the dearer is at most MATCH.maxPriceRatio times the cheaper (stores mark up
//   differently, not tenfold), compared only in one unit: one currency, or US dollars at a dated reference rate
//   (prices.ts, decision 089);
// - the picture is evidence: a picture many listings share under unrelated titles (a placeholder, a stock
//   photo, a size chart) is not (pictureIsEvidence).
// Every decision carries its evidence as a sentence: "same picture: 3 of 64 bits differ; titles share neck, fan,
// bladeless; $19.99 and $24.95".
//
// Grouping (clusterListings): listings are taken in a fixed order (the caller's: first seen, then id) and each
// joins the product whose members it matches best, but only while it stays within MATCH.maxDistanceToAnchor
// bits of that product's centre (the member with the most copies of its picture: usually the supplier photo,
// even when the first store to list it cropped it) and within MATCH.maxDiameter bits of its anchor (its first
// listing). So a product's members are all near one picture: a chain A~B~C~D where A and D share nothing
// cannot form. An operator's decisions are constraints: a listing split out
// of a product never rejoins the listings it was split from; two listings an operator merged are one product.
// Pure: no I/O, no clock.
import { pricePairClause, priceRatio, type ComparablePrice } from "~/domain/catalogue/prices";
import { identityVerdict, lookAlikeReason, type ListingTraits } from "~/domain/catalogue/look-alike";
import { compareTitles, titlesContradict, type NormalisedTitle } from "~/domain/catalogue/title";

export const MATCH = {
  /** Pictures this near (bits of 64) are "the same picture". */
  strongDistance: 6,
  /** The farthest two pictures of one product may be, when the titles agree. */
  maxDistance: 12,
  /**
   * Past maxDistance and up to this (the index's widest look-up), pictures count only with the same title: all
   * but a fifth of the shorter title's words shared, and at least titleLedMinWords of them. A 5-10% crop or a
   * sale badge moves a DCT fingerprint 8-20 bits (docs/decisions/046's calibration).
   */
  titleLedDistance: 15,
  titleLedMinOverlap: 0.8,
  titleLedMinWords: 3,
  /** Past strongDistance, this share of the shorter title's words must be shared. */
  minTitleOverlapWhenFar: 0.5,
  /** The dearer offer may cost at most this many times the cheaper one. */
  maxPriceRatio: 3,
  /** A new member must be this near the product's centre (its member with the most copies of its picture). */
  maxDistanceToAnchor: 16,
  /** ... and this near its anchor (its first listing): no member is ever farther, so a product cannot chain. */
  maxDiameter: 24,
  /** Members of one product indexed for look-ups (its first ones); the rest are members all the same. */
  indexedPerProduct: 32,
  /** At most this many placed listings, nearest first, are compared with a new listing. */
  maxCandidates: 24,
  /** A picture seen on this many listings or more is checked for being a stock picture. */
  stockPictureMinListings: 5,
  /** ... and is one when, on average, two of those titles share less than this share of words. */
  stockPictureMaxTitleOverlap: 0.25,
} as const;

export interface ListingForMatch extends ComparablePrice {
  id: number;
  title: NormalisedTitle;
  /**
   * Barcodes, SKUs, vendor, store, options and the title's numbers and nouns (listingTraits): strong identifiers
   * decide first, and look-alikes (versions of one line) stay apart whatever their pictures say (decision 087).
   * A listing without traits is judged on its picture, title and price alone.
   */
  traits?: ListingTraits;
}

/** Whether the identifiers or the look-alike rules keep two listings apart (decision 087). */
export function keptApartByTraits(a: ListingForMatch, b: ListingForMatch): boolean {
  if (!a.traits || !b.traits) return false;
  const identity = identityVerdict(a.traits, b.traits);
  if (identity) return !identity.same;
  return lookAlikeReason(a.traits, b.traits, a.title, b.title) !== null;
}

export interface PairEvidence {
  distance: number;
  sharedWords: string[];
  prices: [number | null, number | null];
  /** The currency of both prices when they share one; null when they differ or are unknown. */
  currency: string | null;
  /** Each price's currency (decision 089), and the prices in US dollars at the reference rate of rateDate when converted. */
  currencies?: [string | null, string | null];
  usd?: [number | null, number | null];
  rateDate?: string;
}

export interface PairDecision {
  match: boolean;
  /** The evidence as a sentence, for a match and for a refusal alike. */
  reason: string;
  evidence: PairEvidence;
}

export { evidenceMoney } from "~/domain/catalogue/prices";

function pictureClause(distance: number): string {
  if (distance === 0) return "same picture: identical fingerprints";
  const bits = `${distance} of 64 bits differ`;
  if (distance <= MATCH.strongDistance) return `same picture: ${bits}`;
  return distance <= MATCH.maxDistance ? `similar picture: ${bits}` : `alike picture (cropped or marked): ${bits}`;
}

/** Whether two listings whose pictures are `distance` bits apart are one product, and why. */
export function decidePair(a: ListingForMatch, b: ListingForMatch, distance: number, pictureIsEvidence = true): PairDecision {
  const titles = compareTitles(a.title, b.title);
  const sameCurrency = a.currency === b.currency;
  const converted = !sameCurrency && a.currency !== null && b.currency !== null;
  const evidence: PairEvidence = {
    distance,
    sharedWords: titles.shared,
    prices: [a.priceCents, b.priceCents],
    currency: sameCurrency ? a.currency : null,
    ...(converted ? { currencies: [a.currency, b.currency] as [string, string], usd: [a.usdCents ?? null, b.usdCents ?? null] as [number | null, number | null] } : {}),
    ...(converted && (a.rateDate ?? b.rateDate) ? { rateDate: a.rateDate ?? b.rateDate } : {}),
  };
  const titleClause = titles.shared.length > 0 ? `titles share ${titles.shared.join(", ")}` : "titles share no word";
  const priceClause = pricePairClause(a, b);
  const sentence = [pictureClause(distance), titleClause, priceClause].join("; ");
  const refuse = (why: string): PairDecision => ({ match: false, reason: `${why} (${sentence})`, evidence });

  const identity = a.traits && b.traits ? identityVerdict(a.traits, b.traits) : null;
  if (identity?.same) return { match: true, reason: `${identity.reason}; ${sentence}`, evidence };
  if (identity) return refuse(identity.reason);
  if (!pictureIsEvidence) return refuse("the picture is a stock picture many unrelated listings use");
  if (distance > MATCH.titleLedDistance) return refuse("pictures too different");
  if (distance > MATCH.maxDistance && (titles.overlap < MATCH.titleLedMinOverlap || titles.shared.length < MATCH.titleLedMinWords))
    return refuse("pictures only somewhat alike and titles not the same");
  if (titles.contradiction) return refuse(`titles contradict: ${titles.contradiction}`);
  const bothHaveWords = a.title.words.length > 0 && b.title.words.length > 0;
  if (bothHaveWords && titles.shared.length === 0) return refuse("titles share no word");
  if (distance > MATCH.strongDistance && titles.overlap < MATCH.minTitleOverlapWhenFar) return refuse("pictures only similar and titles too different");
  const lookAlike = lookAlikeReason(a.traits, b.traits, a.title, b.title);
  if (lookAlike) return refuse(`versions of one line, not one product: ${lookAlike}`);
  const ratio = priceRatio(a, b);
  if (ratio > MATCH.maxPriceRatio) return refuse(`prices too far apart (${ratio.toFixed(1)}x)`);
  return { match: true, reason: sentence, evidence };
}

/**
 * decidePair's answer without its sentence: the same rules, no strings built. Grouping asks this of every
 * candidate (up to MATCH.maxCandidates a listing, a million listings) and writes the sentence only for the pair
 * that admits a listing. tests/unit/catalogue/catalogue-match.test.ts checks it agrees with decidePair.
 */
export function pairMatches(a: ListingForMatch, b: ListingForMatch, distance: number, pictureIsEvidence = true): boolean {
  const identity = a.traits && b.traits ? identityVerdict(a.traits, b.traits) : null;
  if (identity) return identity.same;
  if (!pictureIsEvidence || distance > MATCH.titleLedDistance) return false;
  const aw = a.title.words;
  const bw = b.title.words;
  let shared = 0;
  for (let i = 0; i < aw.length; i++) if (bw.includes(aw[i])) shared++;
  const smaller = Math.min(aw.length, bw.length);
  const overlap = smaller === 0 ? 0 : shared / smaller;
  if (distance > MATCH.maxDistance && (overlap < MATCH.titleLedMinOverlap || shared < MATCH.titleLedMinWords)) return false;
  if (titlesContradict(a.title, b.title)) return false;
  if (aw.length > 0 && bw.length > 0 && shared === 0) return false;
  if (distance > MATCH.strongDistance && overlap < MATCH.minTitleOverlapWhenFar) return false;
  if (priceRatio(a, b) > MATCH.maxPriceRatio) return false;
  return lookAlikeReason(a.traits, b.traits, a.title, b.title) === null;
}

/**
 * Whether a picture shared by these listings' titles tells anything: a stock picture, a placeholder or a size
 * chart appears on many listings whose titles have little in common. Takes the titles of the listings that
 * carry (nearly) this picture.
 */
export function pictureIsEvidence(titles: NormalisedTitle[]): boolean {
  if (titles.length < MATCH.stockPictureMinListings) return true;
  let total = 0;
  let pairs = 0;
  // Enough pairs to judge, without quadratic work on a picture thousands of listings use.
  const sample = titles.slice(0, 12);
  for (let i = 0; i < sample.length; i++)
    for (let j = i + 1; j < sample.length; j++) {
      total += compareTitles(sample[i], sample[j]).overlap;
      pairs++;
    }
  return total / pairs >= MATCH.stockPictureMaxTitleOverlap;
}

/** An operator's decisions, kept across re-runs. */
export interface OperatorConstraints {
  /** Pairs of listing ids that must never be in one product ("split out"). */
  apart: Array<[number, number]>;
  /** Pairs of listing ids that are one product ("merged"). */
  together: Array<[number, number]>;
}

export interface ClusterInput extends ListingForMatch {
  /** Whether this listing's picture counts as evidence (see pictureIsEvidence). */
  pictureIsEvidence: boolean;
}

export interface ClusterMember {
  id: number;
  /**
   * The pair decision that admitted it (null for the anchor and for operator merges); for a listing placed without
   * a picture (placeByTitle) only the sentence and the listing it matched (none for the anchor): decision 091.
   */
  evidence: (PairEvidence & { withId: number; reason: string }) | { withId: number | null; reason: string; noPicture: true } | null;
  /** "picture" (matched), "title" (no picture: matched on its title), "anchor" (first of its product) or "operator" (merged by hand). */
  via: "anchor" | "picture" | "title" | "operator";
}

export interface Cluster {
  /** The first listing: every member's picture is within MATCH.maxDiameter of its picture. */
  anchorId: number;
  /**
   * The member with the most copies of its picture in the product (members within MATCH.strongDistance), among its
   * first MATCH.indexedPerProduct: usually a copy of the supplier photo. A new member must be within
   * MATCH.maxDistanceToAnchor of it.
   */
  centreId: number;
  members: ClusterMember[];
}

/**
 * A member admitted by a picture match. Its evidence (a sentence and the shared words) is written out when read,
 * from the two listings' titles and prices and the distance, rather than kept: a million members would otherwise
 * hold a million sentences. decidePair is deterministic, so it reads the same every time.
 */
class MatchedMember implements ClusterMember {
  readonly via = "picture" as const;
  constructor(
    readonly id: number,
    private readonly withId: number,
    private readonly distance: number,
    private readonly listings: Map<number, ClusterInput>,
  ) {}

  get evidence(): PairEvidence & { withId: number; reason: string } {
    const decision = decidePair(this.listings.get(this.id)!, this.listings.get(this.withId)!, this.distance);
    return { ...decision.evidence, withId: this.withId, reason: decision.reason };
  }

  toJSON() {
    return { id: this.id, via: this.via, evidence: this.evidence };
  }
}

/** The listings whose pictures are within `radius` bits of this listing's, with their distances. */
export type NearListings = (id: number, radius: number) => Array<{ id: number; distance: number }>;
export type DistanceBetween = (a: number, b: number) => number;

/**
 * Products being formed: place() puts one listing into the product whose members it matches best, or starts a
 * new one. Placing listings one by one in a fixed order gives the same products as a full run in that order,
 * so an incremental run (one new store) and a full re-run agree. `near(id)` returns the listings within
 * MATCH.maxDistance of it (from a HashIndex, never all pairs); `distance(a, b)` the bits between two pictures.
 */
export class ClusterState {
  readonly clusters: Cluster[] = [];
  private readonly clusterOf = new Map<number, Cluster>();
  private readonly listings = new Map<number, ClusterInput>();
  private readonly apart = new Map<number, Set<number>>();
  /** Per product: its first members and how many of the others are copies of their picture (updateCentre). */
  private readonly copies = new Map<Cluster, Map<number, number>>();

  /**
   * `onPlaced` is told each placement, so the caller can index the listing for the ones after it. Indexing only a
   * product's first MATCH.indexedPerProduct members keeps every look-up bounded: a product sold by thousands of
   * stores would otherwise answer every look-up near it with thousands of candidates.
   */
  constructor(
    private readonly near: NearListings,
    private readonly distance: DistanceBetween,
    constraints: OperatorConstraints = { apart: [], together: [] },
    private readonly onPlaced: (id: number, cluster: Cluster) => void = () => {},
  ) {
    for (const [a, b] of constraints.apart) {
      if (!this.apart.has(a)) this.apart.set(a, new Set());
      if (!this.apart.has(b)) this.apart.set(b, new Set());
      this.apart.get(a)!.add(b);
      this.apart.get(b)!.add(a);
    }
  }

  /** The product a placed listing is in. */
  of(id: number): Cluster | undefined {
    return this.clusterOf.get(id);
  }

  private keptApart(listing: number, cluster: Cluster): boolean {
    const refused = this.apart.get(listing);
    return refused !== undefined && cluster.members.some((m) => refused.has(m.id));
  }

  /**
   * Places one listing (not placed before) and returns its product. Nearest first: when products have members
   * within MATCH.strongDistance ("the same picture") that match, the listing joins the best of those; only
   * otherwise are members up to MATCH.maxDistance considered. The wide look-up is the costly one (a 12-bit radius
   * probes ~40 times more index buckets than a 6-bit one), and most listings are a supplier photo re-encoded.
   */
  place(listing: ClusterInput): Cluster {
    this.listings.set(listing.id, listing);
    const best = listing.pictureIsEvidence ? (this.bestWithin(listing, MATCH.strongDistance) ?? this.bestWithin(listing, MATCH.titleLedDistance)) : null;
    let cluster: Cluster;
    if (best) {
      cluster = best.cluster;
      cluster.members.push(best.admit);
    } else {
      cluster = { anchorId: listing.id, centreId: listing.id, members: [{ id: listing.id, via: "anchor", evidence: null }] };
      this.clusters.push(cluster);
    }
    this.clusterOf.set(listing.id, cluster);
    if (cluster.members.length <= MATCH.indexedPerProduct) this.updateCentre(cluster, listing.id);
    this.onPlaced(listing.id, cluster);
    return cluster;
  }

  /**
   * Counts, for each of a product's first MATCH.indexedPerProduct members, the others within MATCH.strongDistance,
   * updated as each joins (linear, not quadratic); the centre is the member with the most (ties: the earlier).
   */
  private updateCentre(cluster: Cluster, joined: number): void {
    let counts = this.copies.get(cluster);
    if (!counts) this.copies.set(cluster, (counts = new Map()));
    let own = 0;
    for (const [member, count] of counts) {
      if (this.distance(member, joined) <= MATCH.strongDistance) {
        counts.set(member, count + 1);
        own++;
      }
    }
    counts.set(joined, own);
    let best = cluster.centreId;
    let bestCount = counts.get(best) ?? -1;
    for (const [member, count] of counts) if (count > bestCount) [best, bestCount] = [member, count];
    cluster.centreId = best;
  }

  /** The product whose members within `radius` match the listing most often (then nearest, then oldest). */
  private bestWithin(listing: ClusterInput, radius: number): { cluster: Cluster; admit: ClusterMember } | null {
    // Per product: how many of its members match, their total distance, and the first that matched (the evidence).
    let best: { cluster: Cluster; votes: number; total: number; withId: number; distance: number } | null = null;
    const votes = new Map<Cluster, { votes: number; total: number; withId: number; distance: number }>();
    // A product with a member the identifiers or the look-alike rules keep apart from this listing is refused,
    // however many of its other members match: versions of one line must not meet through a vaguer listing.
    const vetoed = new Set<Cluster>();
    let examined = 0;
    for (const candidate of this.near(listing.id, radius)) {
      const other = this.listings.get(candidate.id);
      const cluster = this.clusterOf.get(candidate.id);
      if (!other || !cluster || !other.pictureIsEvidence) continue;
      // The nearest placed members decide: a product sold by hundreds of stores is not compared member by member.
      if (++examined > MATCH.maxCandidates) break;
      if (!pairMatches(listing, other, candidate.distance)) {
        if (keptApartByTraits(listing, other)) vetoed.add(cluster);
        continue;
      }
      const entry = votes.get(cluster);
      if (entry) {
        entry.votes++;
        entry.total += candidate.distance;
      } else {
        votes.set(cluster, { votes: 1, total: candidate.distance, withId: other.id, distance: candidate.distance });
      }
    }
    for (const [cluster, entry] of votes) {
      if (vetoed.has(cluster) || this.keptApart(listing.id, cluster)) continue;
      if (this.distance(listing.id, cluster.centreId) > MATCH.maxDistanceToAnchor) continue;
      if (this.distance(listing.id, cluster.anchorId) > MATCH.maxDiameter) continue;
      const mean = entry.total / entry.votes;
      const better =
        best === null ||
        entry.votes > best.votes ||
        (entry.votes === best.votes && mean < best.total / best.votes) ||
        (entry.votes === best.votes && mean === best.total / best.votes && cluster.anchorId < best.cluster.anchorId);
      if (better) best = { cluster, ...entry };
    }
    if (!best) return null;
    return { cluster: best.cluster, admit: new MatchedMember(listing.id, best.withId, best.distance, this.listings) };
  }

  /**
   * Places a listing that has no picture fingerprint (decision 091): it joins the product of the first candidate
   * `judge` accepts (candidates come from a title index, best first) unless an operator's split keeps it apart,
   * or becomes a product of its own whose evidence says "no picture". Its picture, when it arrives, places it again
   * (the caller rebuilds on a changed picture).
   */
  placeByTitle(listing: ClusterInput, candidates: number[], judge: (other: ClusterInput) => string | null): Cluster {
    this.listings.set(listing.id, listing);
    let cluster: Cluster | undefined;
    for (const id of candidates) {
      const other = this.listings.get(id);
      const candidate = this.clusterOf.get(id);
      if (!other || !candidate || this.keptApart(listing.id, candidate)) continue;
      const reason = judge(other);
      if (reason === null) continue;
      cluster = candidate;
      cluster.members.push({ id: listing.id, via: "title", evidence: { withId: id, reason, noPicture: true } });
      break;
    }
    if (!cluster) {
      cluster = { anchorId: listing.id, centreId: listing.id, members: [{ id: listing.id, via: "anchor", evidence: { withId: null, reason: "no picture", noPicture: true } }] };
      this.clusters.push(cluster);
    }
    this.clusterOf.set(listing.id, cluster);
    this.onPlaced(listing.id, cluster);
    return cluster;
  }

  /** An operator's merge: the two listings' products become one (the older anchor stays), unless a split forbids it. */
  merge(a: number, b: number): void {
    const ca = this.clusterOf.get(a);
    const cb = this.clusterOf.get(b);
    if (!ca || !cb || ca === cb) return;
    if (cb.members.some((m) => this.keptApart(m.id, ca))) return;
    const [keep, gone] = ca.anchorId <= cb.anchorId ? [ca, cb] : [cb, ca];
    for (const m of gone.members) {
      keep.members.push(m.via === "anchor" ? { id: m.id, via: "operator", evidence: null } : m);
      this.clusterOf.set(m.id, keep);
    }
    gone.members = [];
    this.clusters.splice(this.clusters.indexOf(gone), 1);
  }
}

/** Groups listings into products: every listing placed in `order` (first seen, then id), then the operator's merges. */
export function clusterListings(
  order: ClusterInput[],
  near: NearListings,
  distance: DistanceBetween,
  constraints: OperatorConstraints = { apart: [], together: [] },
): Cluster[] {
  const state = new ClusterState(near, distance, constraints);
  for (const listing of order) state.place(listing);
  for (const [a, b] of constraints.together) state.merge(a, b);
  return state.clusters;
}
