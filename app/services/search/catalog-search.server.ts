// The built-in search engine: FTS5 decides which products match the text, the in-memory catalogue
// index decides the order and the filters (docs/decisions/012).
//
// Plans, chosen per query:
// - no text: walk the sort's precomputed order, keep rows that pass the filters, stop when the page
//   is full;
// - text, match set cached: the same walk, also testing membership in the cached match set;
// - text, not cached: read the whole match set once from FTS5 (one group_concat row), cache it, then
//   walk the order testing membership, unless the matches are so few that sorting them is cheaper.
// - sort=relevance: FTS5's BM25 ranking, filtered in memory.
//
// Several words: every word must match. When that finds fewer than SOME_WORDS_BELOW products, the
// products matching most of the text are added after them (`matchedSomeWords`): each word weighs by how
// rare it is in the catalogue (log of catalogue size over its matches, a word matching nothing weighs 0),
// a product is kept when its words carry at least half the text's weight. The products carrying every
// word come first, then the others; within each, by that weight with words outside the title counting
// half, then the sort's order ("phone holder car" -> the car mounts, then the car seat covers; "dog
// leash" -> the dog leashes, then the other leashes; issue 25, docs/decisions/056). literal=1 turns
// both this and the correction off.
//
// Spelling: when the text as typed finds nothing (or almost nothing), its misspelt words are corrected
// from the catalogue's own vocabulary (~/domain/spelling; real English words are left alone, decision 082)
// and, if the corrected text finds more, that page is returned with correctedQuery / originalQuery
// ("Showing results for ..."). Whether it finds more is a matter of the words, not of the filters: a
// misspelt word is corrected even where the filters leave nothing ("orgaizer" in Camping shows that no
// organizer is in Camping, issue 35). literal=1 skips it.
import type { SqlReader } from "~/db.server";
import { ftsQuery, ftsTerms, type ProductQuery } from "~/domain/products/product-query";
import { correctQuery, foldWord } from "~/domain/products/spelling";
import { CatalogIndex } from "~/services/search/catalog-index.server";
import { englishWords } from "~/services/search/english-words.server";
import { rowOrder, walker } from "~/services/search/row-order.server";
import { rankSomeWords, type RankedRows } from "~/services/search/some-words.server";
import { TextMatcher, type MatchSet } from "~/services/search/text-matcher.server";

export interface SearchPage {
  /** Product ids of the page, in order. */
  ids: number[];
  total: number;
  totalIsEstimate: boolean;
  hasMore: boolean;
  plan: "walk" | "walk-matches" | "sorted-matches" | "relevance" | "empty";
  /** The text searched instead of the query's, when its spelling was corrected; else null. */
  correctedQuery: string | null;
  /** The query's text as typed when it was corrected; else null. */
  originalQuery: string | null;
  /** True when few products matched every word and the results go on with products matching most of them. */
  matchedSomeWords: boolean;
}

type LiteralPage = Omit<SearchPage, "correctedQuery" | "originalQuery" | "matchedSomeWords"> & {
  matchedSomeWords?: boolean;
  /** Products matching every word (the page's total unless matchedSomeWords). */
  allWords?: number;
};

const SAMPLE = 20_000;
/** Totals kept per catalogue version: a filter set's count does not change with the sort or the page. */
const TOTALS_CACHED = 2_000;
/** Past this many rows to visit, sorting the (few) matches beats walking the order. Measured on 1M. */
const WALK_ROWS_LIMIT = 200_000;
/** A text of several words that fewer than this many products carry whole is followed by those carrying most of it. */
const SOME_WORDS_BELOW = 24;
/** A text finding at most this many products may be corrected... */
const FEW_RESULTS = 2;
/** ...when the correction finds at least this many times more (any, when the text found none). */
const CORRECTION_GAIN = 10;
/** Partial-match rankings kept per catalogue version (a broad word's can hold 100,000 rows: 400 KB). */
const SOME_WORDS_CACHED = 64;
/** Corrections kept per catalogue version (most queries are correct: their entry is null). */
const CORRECTIONS_CACHED = 1_000;

/** What a total depends on: the text and the filters, not the sort, page, page size or seed. */
function totalKey(q: ProductQuery, fts: string | null): string {
  const { sort: _sort, page: _page, pageSize: _pageSize, seed: _seed, q: _text, ...filters } = q;
  return JSON.stringify([fts, filters]);
}

export class CatalogSearch {
  private index: CatalogIndex | null = null;
  private totals = new Map<string, { total: number; totalIsEstimate: boolean }>();
  private totalsIndex: CatalogIndex | null = null;
  private loading: Promise<CatalogIndex> | null = null;
  private readonly text: TextMatcher;
  private corrections = new Map<string, string | null>();
  private correctionsIndex: CatalogIndex | null = null;
  /** mostWords' ranked rows per text, filters and order (null: nothing carries half the text), per catalogue version. */
  private someWords = new Map<string, { rows: RankedRows; allWords: number } | null>();
  private someWordsIndex: CatalogIndex | null = null;

  constructor(private readonly sql: SqlReader) {
    this.text = new TextMatcher(sql);
  }

  /** The catalogue version being read now, which the searches that arrive meanwhile share. */
  private versionRead: Promise<number> | null = null;

  /**
   * The catalogue's version: one read for all the searches that arrive while it is under way (on PostgreSQL each read
   * is a round trip; decision 098). A search sees a version read after it arrived or at most one round trip before.
   */
  private readVersion(): Promise<number> {
    this.versionRead ??= this.sql
      .row(`SELECT "version" FROM "CatalogState" WHERE "id" = 1`)
      .then((row) => Number((row as [number])[0]))
      .finally(() => {
        this.versionRead = null;
      });
    return this.versionRead;
  }

  /** The current index; reloads when an import bumped the catalogue version. */
  async current(): Promise<CatalogIndex> {
    const version = await this.readVersion();
    if (this.index && this.index.version === version) return this.index;
    if (!this.loading) {
      // The broadest words' matches are read before the version serves (text-matcher.server.ts: `warm`), and the
      // correction's English words with the first (a reading left to the background only started once the load's
      // reads were done, and the first correction waited ~40 ms for it).
      this.loading = CatalogIndex.load(this.sql)
        .then(async (index) => {
          await Promise.all([this.text.warm(index), englishWords().catch(() => undefined)]);
          return index;
        })
        .finally(() => {
          this.loading = null;
        });
    }
    // A large catalogue keeps serving the previous index while the new one loads.
    if (this.index && this.index.size > 200_000) {
      void this.loading.then((next) => (this.index = next)).catch(() => undefined);
      return this.index;
    }
    this.index = await this.loading;
    return this.index;
  }

  /** Whether a word (any case or accents) is a word of the catalogue's titles and niches (~/domain/spelling). */
  async knowsWord(word: string): Promise<boolean> {
    const vocabulary = (await this.current()).vocabulary;
    const w = foldWord(word);
    // "brushes" is known when "brush" is (the full-text index stems both alike).
    return [w, w.replace(/s$/, ""), w.replace(/es$/, "")].some((form) => form.length > 0 && vocabulary.has(form));
  }

  /** Niche slugs present in the catalogue, alphabetical. */
  async niches(): Promise<string[]> {
    const index = await this.current();
    return index.nicheNames.filter(Boolean).sort();
  }

  /**
   * Products added after `afterId` (ids above it: ids only grow) that the query's text and filters match,
   * as typed (no spelling correction): how many, the newest `sample` of them, and the highest id the
   * index holds (the next watermark; a large catalogue's reload may still be under way). Saved-search
   * alerts (docs/decisions/030). Rows are in id order, so only the tail of the index is visited.
   */
  async matchingAdded(q: ProductQuery, afterId: number, sample = 3): Promise<{ count: number; ids: number[]; upToId: number }> {
    const index = await this.current();
    const size = index.size;
    const upToId = Math.max(afterId, size > 0 ? index.cols.ids[size - 1] : 0);
    const fts = q.q ? ftsQuery(q.q) : null;
    if (size === 0 || upToId === afterId || (q.q && !fts)) return { count: 0, ids: [], upToId };
    const filter = index.filter(q);
    const matches = fts ? await this.text.all(index, fts) : null;
    const ids: number[] = [];
    let count = 0;
    for (let row = size - 1; row >= 0 && index.cols.ids[row] > afterId; row--) {
      if ((filter && !filter(row)) || (matches && !matches.has(row))) continue;
      count++;
      if (ids.length < sample) ids.push(index.cols.ids[row]);
    }
    return { count, ids, upToId };
  }

  async search(q: ProductQuery): Promise<SearchPage> {
    const index = await this.current();
    const finish = ({ allWords: _allWords, matchedSomeWords, ...page }: LiteralPage, corrected: string | null): SearchPage => ({
      ...page,
      matchedSomeWords: matchedSomeWords ?? false,
      correctedQuery: corrected,
      originalQuery: corrected === null ? null : q.q!,
    });
    const asTyped = async () => finish(await this.searchAsTyped(index, q), null);
    // Decided on the products matching every word (partial matches do not hide a typo: "dgo leash"), counted before
    // any page: ranking the products matching most of the text as typed is wasted when its correction is searched.
    if (!q.q || q.literal || (await this.everyWordTotal(index, q)) > FEW_RESULTS) return asTyped();
    const corrected = await this.correction(index, q.q);
    if (corrected === null) return asTyped();
    // Decided on the text alone (every word, no filters): the filters say where to look, not how a word is spelt.
    const typed = await this.textMatches(index, q.q);
    const fixed = await this.textMatches(index, corrected);
    if (typed > 0 && fixed < typed * CORRECTION_GAIN) return asTyped();
    const better = await this.searchAsTyped(index, { ...q, q: corrected });
    // No product carries every corrected word: the correction stands if products carry most of them.
    const worthIt = fixed > 0 || better.total > 0;
    return worthIt ? finish(better, corrected) : asTyped();
  }

  /**
   * The products carrying every word of the query's text that its filters keep: the total of its page as typed (the
   * same count, cached), and its partial ranking's allWords (a word matching nothing makes both 0).
   */
  private async everyWordTotal(index: CatalogIndex, q: ProductQuery): Promise<number> {
    const fts = ftsQuery(q.q, (w) => index.vocabulary.has(w));
    if (index.size === 0 || !fts) return 0;
    const matches = await this.text.all(index, fts);
    const filter = index.filter(q);
    return this.total(index, q, fts, () => ({ total: countMatches(matches, filter), totalIsEstimate: false })).total;
  }

  /** How many products carry every word of a text, whatever the filters (the match set is cached for the search). */
  private async textMatches(index: CatalogIndex, text: string): Promise<number> {
    const fts = ftsQuery(text, (w) => index.vocabulary.has(w));
    return fts ? (await this.text.all(index, fts)).rows.length : 0;
  }

  /** The text's spelling correction from the catalogue's vocabulary (null: nothing to correct), memoised per version. */
  private async correction(index: CatalogIndex, text: string): Promise<string | null> {
    if (this.correctionsIndex !== index) {
      this.corrections.clear();
      this.correctionsIndex = index;
    }
    const hit = this.corrections.get(text);
    if (hit !== undefined) return hit;
    const corrected = correctQuery(text, index.vocabulary, await englishWords());
    this.corrections.set(text, corrected);
    if (this.corrections.size > CORRECTIONS_CACHED) this.corrections.delete(this.corrections.keys().next().value!);
    return corrected;
  }

  private async searchAsTyped(index: CatalogIndex, q: ProductQuery): Promise<LiteralPage> {
    if (index.size === 0) return { ids: [], total: 0, totalIsEstimate: false, hasMore: false, plan: "empty" };
    const isWord = (w: string) => index.vocabulary.has(w);
    const fts = q.q ? ftsQuery(q.q, isWord) : null;
    const filter = index.filter(q);
    const skip = (q.page - 1) * q.pageSize;
    const need = skip + q.pageSize + 1;

    if (q.q && !fts) return { ids: [], total: 0, totalIsEstimate: false, hasMore: false, plan: "empty" };

    if (q.sort === "relevance" && fts) return this.relevance(index, q, fts, filter, skip);

    if (!fts) {
      const walked = walk(index, q, filter, null, skip, need);
      const total = this.total(index, q, null, () => this.estimateTotal(index, filter, walked));
      return { ids: walked.ids, hasMore: walked.hasMore, ...total, plan: "walk" };
    }

    // One read of the posting lists (~10 ms for a word in 10% of a million products), cached per
    // catalogue version, so the next page and the exact total cost nothing more.
    const matches = await this.text.all(index, fts);
    const terms = ftsTerms(q.q!, isWord);
    // Counted before the walk (once per text and filters): filters that keep few of the matches, or none,
    // would make the walk visit most of the catalogue to find them (issue 35: a broad word in a niche without it).
    const total = this.total(index, q, fts, () => ({ total: countMatches(matches, filter), totalIsEstimate: false }));
    // literal=1 ("Search instead for ...") searches the text exactly as typed: every word.
    if (terms.length > 1 && !q.literal && total.total < SOME_WORDS_BELOW) {
      const some = await this.mostWords(index, q, terms, filter, skip);
      if (some) return some;
    }
    if (total.total === 0) return { ids: [], ...total, hasMore: false, plan: "sorted-matches" };
    // Walking visits about need * size / (matches the filters keep) rows; sorting costs those matches * log of them.
    const walkRows = (need * index.size) / total.total;
    if (walkRows > WALK_ROWS_LIMIT) return sortedMatches(index, q, filter, matches, skip);
    const walked = walk(index, q, filter, matches, skip, need);
    return { ids: walked.ids, hasMore: walked.hasMore, ...total, plan: "walk-matches" };
  }

  /**
   * The number of products a query's text and filters match, counted once per catalogue version:
   * paging through results or changing the sort reuses it (counting ~100k matches against a filter
   * costs a few milliseconds; walking to the page usually far less).
   */
  private total(
    index: CatalogIndex,
    q: ProductQuery,
    fts: string | null,
    count: () => { total: number; totalIsEstimate: boolean },
  ): { total: number; totalIsEstimate: boolean } {
    if (this.totalsIndex !== index) {
      this.totals.clear();
      this.totalsIndex = index;
    }
    const key = totalKey(q, fts);
    const hit = this.totals.get(key);
    if (hit) return hit;
    const counted = count();
    this.totals.set(key, counted);
    if (this.totals.size > TOTALS_CACHED) this.totals.delete(this.totals.keys().next().value!);
    return counted;
  }

  /**
   * Products matching at least half the text's weight (see the header): those with every word first, then
   * the heaviest, then in the sort's order; null when no word of the text matches anything.
   */
  private async mostWords(
    index: CatalogIndex,
    q: ProductQuery,
    terms: string[],
    filter: ((row: number) => boolean) | null,
    skip: number,
  ): Promise<LiteralPage | null> {
    if (this.someWordsIndex !== index) {
      this.someWords.clear();
      this.someWordsIndex = index;
    }
    // Paging through the results or asking again ranks nothing twice.
    const key = JSON.stringify([totalKey(q, terms.join(" ")), q.sort, q.sort === "random" ? q.seed : 0]);
    let ranked = this.someWords.get(key);
    if (ranked === undefined) {
      ranked = await rankSomeWords(this.text, index, q, terms, filter);
      this.someWords.set(key, ranked);
      if (this.someWords.size > SOME_WORDS_CACHED) this.someWords.delete(this.someWords.keys().next().value!);
    }
    if (ranked === null) return null;
    const { rows, allWords } = ranked;
    const ids = Array.from(rows.page(skip, skip + q.pageSize), (row) => index.cols.ids[row]);
    return {
      ids,
      total: rows.length,
      totalIsEstimate: false,
      hasMore: skip + q.pageSize < rows.length,
      plan: "sorted-matches",
      matchedSomeWords: true,
      allWords,
    };
  }

  private async relevance(
    index: CatalogIndex,
    q: ProductQuery,
    fts: string,
    filter: ((row: number) => boolean) | null,
    skip: number,
  ): Promise<LiteralPage> {
    const matches = await this.text.all(index, fts);
    const { total } = this.total(index, q, fts, () => ({ total: countMatches(matches, filter), totalIsEstimate: false }));
    const want = skip + q.pageSize;
    let limit = Math.max(want * 2, 100);
    for (;;) {
      const ranked = await this.text.ranked(fts, limit);
      const kept: number[] = [];
      for (const id of ranked) {
        const row = index.rowOf(id);
        if (row === undefined || (filter && !filter(row))) continue;
        kept.push(id);
        if (kept.length >= want) break;
      }
      if (kept.length >= want || ranked.length < limit) {
        return { ids: kept.slice(skip, want), total, totalIsEstimate: false, hasMore: want < total, plan: "relevance" };
      }
      limit *= 4;
    }
  }

  /** Exact when cheap; else from a fixed sample of rows, and labelled an estimate. */
  private estimateTotal(
    index: CatalogIndex,
    filter: ((row: number) => boolean) | null,
    walked: { total: number; exhausted: boolean },
  ): { total: number; totalIsEstimate: boolean } {
    if (!filter) return { total: index.size, totalIsEstimate: false };
    if (walked.exhausted) return { total: walked.total, totalIsEstimate: false };
    if (index.size <= SAMPLE * 2) {
      let n = 0;
      for (let r = 0; r < index.size; r++) if (filter(r)) n++;
      return { total: n, totalIsEstimate: false };
    }
    const step = index.size / SAMPLE;
    let n = 0;
    for (let i = 0; i < SAMPLE; i++) if (filter(Math.floor(i * step))) n++;
    return { total: Math.round((n / SAMPLE) * index.size), totalIsEstimate: true };
  }
}

function walk(
  index: CatalogIndex,
  q: ProductQuery,
  filter: ((row: number) => boolean) | null,
  matches: MatchSet | null,
  skip: number,
  need: number,
): { ids: number[]; total: number; exhausted: boolean; hasMore: boolean } {
  const at = walker(index, q);
  const ids: number[] = [];
  let kept = 0;
  let i = 0;
  for (; i < index.size && kept < need; i++) {
    const row = at(i);
    if (filter && !filter(row)) continue;
    if (matches && !matches.has(row)) continue;
    if (kept >= skip && ids.length < q.pageSize) ids.push(index.cols.ids[row]);
    kept++;
  }
  const exhausted = i >= index.size;
  return { ids, total: kept, exhausted, hasMore: kept >= need };
}

function countMatches(matches: MatchSet, filter: ((row: number) => boolean) | null): number {
  if (!filter) return matches.rows.length;
  let n = 0;
  for (let i = 0; i < matches.rows.length; i++) if (filter(matches.rows[i])) n++;
  return n;
}

/** Few matches: filter them, then sort just those by the key. */
function sortedMatches(
  index: CatalogIndex,
  q: ProductQuery,
  filter: ((row: number) => boolean) | null,
  matches: MatchSet,
  skip: number,
): LiteralPage {
  const rows: number[] = [];
  for (let i = 0; i < matches.rows.length; i++) {
    const row = matches.rows[i];
    if (!filter || filter(row)) rows.push(row);
  }
  rows.sort(rowOrder(index, q));
  const ids = rows.slice(skip, skip + q.pageSize).map((row) => index.cols.ids[row]);
  return { ids, total: rows.length, totalIsEstimate: false, hasMore: skip + q.pageSize < rows.length, plan: "sorted-matches" };
}
