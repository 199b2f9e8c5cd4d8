// The research assistant (seed threads; docs/decisions/031): a user's threads of questions and answers.
// A question in plain words becomes the product grid's query, through the AI model (a forced tool call,
// its answer checked with zod and the grid's rules) when one is configured, else (or when the model fails
// or is slow) the built-in parser of app/domain/products/product-question.ts; the query runs through the product
// service with the user's research access, and the answer lists the products with why each fits, quoting
// only their own figures. Every answer is labelled with where its query came from. Messages are free
// (decision 031), capped in length and in number per hour. Every query is scoped to the thread's owner: a
// thread of someone else is "not found".
import type { Db } from "~/db.server";
import { parseJsonList, parseStringList } from "~/db.server";
import type { PaidStateInput } from "~/domain/billing/billing";
import { AppError } from "~/domain/errors";
import {
  asksAmongShown,
  checkModelAnswer,
  describeFilters,
  factsPassFilters,
  filtersFromParams,
  filtersProblem,
  filtersToParams,
  likeProduct,
  marginMeaning,
  modelAnswerJsonSchema,
  parseQuestion,
  QUESTION_MAX_CHARS,
  splitModelAnswer,
  unsupportedPhrases,
  usesMargin,
  whyItFits,
  type LikeProduct,
  type PriceMove,
  type QuestionContext,
  type QuestionFilters,
} from "~/domain/products/product-question";
import { formatCount } from "~/domain/products/insights";
import { landedMarginState } from "~/services/landed-cost/margins.server";
import { researchAccess, type ResearchAccess } from "~/domain/products/research-access";
import { AiTextError, type AiText } from "~/integrations/ai-text.server";
import type { ProductCard } from "~/services/products.server";
import { parseProductQuery, productQuery, type ProductQuery } from "~/domain/products/product-query";

export const SOURCES = { model: "AI model", builtIn: "built-in parser" } as const;
export type AnswerSource = (typeof SOURCES)[keyof typeof SOURCES];

export const DEFAULT_THREAD_TITLE = "New thread";
export const THREAD_TITLE_MAX = 80;
export const MAX_THREADS = 200;
/** Products an answer lists (the link opens all of them in the grid). */
export const ANSWER_SIZE = 6;

export type AssistantUser = PaidStateInput & { id: string };

/** What the assistant needs of the product service. */
export interface AssistantProducts {
  search(input: { userId: string; access: ResearchAccess; query: ProductQuery }): Promise<{ items: ProductCard[]; total: number; totalIsEstimate: boolean }>;
  productCards(userId: string, objectIDs: string[], access: ResearchAccess): Promise<ProductCard[]>;
  niches(): Promise<string[]>;
  /** Whether a word is the catalogue's own; null when the search engine cannot say. */
  knowsWord?(word: string): Promise<boolean | null>;
}

export interface AssistantDeps {
  db: Db;
  products: AssistantProducts;
  /** The AI text adapter; its callTool (a configured model) turns questions into queries. */
  ai?: AiText | null;
  /** How long a person waits for the model before the built-in parser answers instead. */
  modelTimeoutMs?: number;
  /** Questions a user may ask per hour, across threads. */
  messagesPerHour?: number;
  now?: () => Date;
}

/** A product of an answer: its card and why it fits, in the answer's own words. */
export type AnswerProduct = ProductCard & { why: string[] };

export interface MessageView {
  id: number;
  role: "user" | "assistant";
  text: string;
  createdAt: string;
  /** The filters the answer used, named as the grid's URL parameters (assistant messages). */
  query: QuestionFilters | null;
  /** The same filters as the grid's URL query string: "niche=pets&maxPrice=30". */
  gridParams: string | null;
  products: AnswerProduct[];
  /** "AI model" or "built-in parser". */
  source: AnswerSource | null;
  /** "from the AI model" / "from the built-in parser", as every answer shows it. */
  sourceLabel: string | null;
  /** How words were read, what could not be done, a model fallback. */
  notes: string[];
  total: number | null;
}

export interface ThreadView {
  id: number;
  title: string;
  createdAt: string;
  updatedAt: string;
}

/** A question understood: the filters to run, where they came from, and what to say about them. */
export interface Understood {
  filters: QuestionFilters;
  source: AnswerSource;
  notes: string[];
  cannot: string[];
  /** Products the answer leaves out (the one a "like X" question named). */
  exclude: string[];
  /** "Which of these ...": the answer narrows the previous answer's products (issue 25). */
  amongShown: boolean;
}

const MODEL_SYSTEM = [
  "You turn a dropshipping seller's question about products into filters for a product search.",
  "Call search_products with only the filters the question asks for; leave every other field out.",
  "Prices are US dollars, margins are percent after duty and fees (\"margin after duty over 30%\" is minMargin 30), orders are the last 30 days. Niches must be slugs from the given list.",
  "stage is the product's lifecycle: emerging (new), rising (growing), peak, declining.",
  "If the question names another product (\"like the posture corrector\"), put its name in likeTitle; if it names a",
  "product of the previous answer by position (\"the second\"), put the position in likePosition; \"cheaper\"/\"pricier\" than it goes in likeMove.",
  "A follow-up refines the previous filters: answer with the complete new filters.",
  "Anything the filters cannot express (shipping country, reviews, brands, leaving something out) goes in unsupported, in a few words. Never guess it.",
].join(" ");

function sourceLabel(source: AnswerSource | null): string | null {
  return source ? `from the ${source}` : null;
}

function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max - 1);
  return `${cut.slice(0, Math.max(cut.lastIndexOf(" "), max / 2)).trimEnd()}…`;
}

function threadView(t: { id: number; title: string; createdAt: Date; updatedAt: Date }): ThreadView {
  return { id: t.id, title: t.title, createdAt: t.createdAt.toISOString(), updatedAt: t.updatedAt.toISOString() };
}

const threadSelect = { id: true, title: true, createdAt: true, updatedAt: true } as const;
const messageSelect = { id: true, role: true, text: true, query: true, productIds: true, source: true, notes: true, total: true, createdAt: true } as const;
type MessageRow = { id: number; role: string; text: string; query: string | null; productIds: string; source: string | null; notes: string; total: number | null; createdAt: Date };

function factsOf(card: ProductCard) {
  return {
    objectID: card.objectID,
    title: card.title,
    niches: card.niches,
    priceCents: card.priceCents,
    orders: card.orders,
    storesSelling: card.storesSelling,
    source: card.source,
    storesAdded7d: card.measured?.storesAdded7d.value ?? null,
    winningScore: card.winningScore,
    lifecycleStage: card.lifecycleStage,
    views: card.engagement?.views ?? null,
    // The margin the grid filters on: after duty and fees (decision 065).
    marginBps: card.insights?.landedMarginBps ?? null,
    amazonPriceCents: card.insights?.amazonPriceCents ?? null,
  };
}

function withWhy(cards: ProductCard[], filters: QuestionFilters): AnswerProduct[] {
  return cards.map((c) => ({ ...c, why: whyItFits(factsOf(c), filters) }));
}

function toLike(card: ProductCard): LikeProduct {
  return { objectID: card.objectID, title: card.title, priceCents: card.priceCents, niches: card.niches };
}

function titleProblem(raw: unknown): string | null {
  if (typeof raw !== "string" || raw.trim() === "") return "Give the thread a title.";
  if (raw.trim().length > THREAD_TITLE_MAX) return `A title can be at most ${THREAD_TITLE_MAX} characters.`;
  return null;
}

export function createAssistant(deps: AssistantDeps) {
  const { db, products } = deps;
  const now = deps.now ?? (() => new Date());
  const modelTimeoutMs = deps.modelTimeoutMs ?? 8000;
  const messagesPerHour = deps.messagesPerHour ?? 120;
  const ai = deps.ai?.callTool ? deps.ai : null;

  async function owned(userId: string, id: number) {
    const thread = await db.thread.findFirst({ where: { id, userId }, select: threadSelect });
    if (!thread) throw new AppError(404, "No thread with that id.");
    return thread;
  }

  async function list(userId: string): Promise<ThreadView[]> {
    const rows = await db.thread.findMany({ where: { userId }, orderBy: [{ updatedAt: "desc" }, { id: "desc" }], take: MAX_THREADS, select: threadSelect });
    return rows.map(threadView);
  }

  async function create(userId: string, input: { title?: string } = {}): Promise<ThreadView> {
    const title = input.title === undefined ? DEFAULT_THREAD_TITLE : input.title;
    const problem = titleProblem(title);
    if (problem) throw new AppError(422, problem, { field: "title" });
    const count = await db.thread.count({ where: { userId } });
    if (count >= MAX_THREADS) throw new AppError(409, `You can keep up to ${MAX_THREADS} threads. Delete one first.`);
    return threadView(await db.thread.create({ data: { userId, title: title.trim() }, select: threadSelect }));
  }

  async function rename(userId: string, id: number, title: string): Promise<ThreadView> {
    await owned(userId, id);
    const problem = titleProblem(title);
    if (problem) throw new AppError(422, problem, { field: "title" });
    return threadView(await db.thread.update({ where: { id }, data: { title: title.trim() }, select: threadSelect }));
  }

  async function remove(userId: string, id: number) {
    const { count } = await db.thread.deleteMany({ where: { id, userId } });
    if (count === 0) throw new AppError(404, "No thread with that id.");
    return { deleted: true as const };
  }

  function view(row: MessageRow, cardsById: Map<string, ProductCard>): MessageView {
    const filters = row.query !== null ? filtersFromParams(new URLSearchParams(row.query)) : null;
    const ids = parseStringList(row.productIds);
    const cards = ids.map((o) => cardsById.get(o)).filter((c): c is ProductCard => Boolean(c));
    const source = row.source === SOURCES.model || row.source === SOURCES.builtIn ? row.source : null;
    return {
      id: row.id,
      role: row.role === "assistant" ? "assistant" : "user",
      text: row.text,
      createdAt: row.createdAt.toISOString(),
      query: filters,
      gridParams: row.query,
      products: filters ? withWhy(cards, filters) : [],
      source,
      sourceLabel: sourceLabel(source),
      notes: parseJsonList(row.notes).filter((n): n is string => typeof n === "string"),
      total: row.total,
    };
  }

  /** A thread with its messages (the last 200), products as cards with the user's access. */
  async function get(user: AssistantUser, id: number) {
    const thread = await owned(user.id, id);
    const rows = (await db.threadMessage.findMany({ where: { threadId: id, userId: user.id }, orderBy: { id: "desc" }, take: 200, select: messageSelect })).reverse();
    const ids = [...new Set(rows.flatMap((r) => parseStringList(r.productIds)))];
    const cards = await products.productCards(user.id, ids, researchAccess(user));
    const byId = new Map(cards.map((c) => [c.objectID, c]));
    return { thread: threadView(thread), messages: rows.map((r) => view(r, byId)) };
  }

  /** The thread's last answer, as the context a follow-up refines. */
  async function previousOf(user: AssistantUser, threadId: number, access: ResearchAccess): Promise<QuestionContext["previous"]> {
    const last = await db.threadMessage.findFirst({
      where: { threadId, userId: user.id, role: "assistant", query: { not: null } },
      orderBy: { id: "desc" },
      select: { query: true, productIds: true },
    });
    const filters = last?.query != null ? filtersFromParams(new URLSearchParams(last.query)) : null;
    if (!last || !filters) return null;
    const cards = await products.productCards(user.id, parseStringList(last.productIds), access);
    return { filters, products: cards.map(toLike) };
  }

  /** Asks the model for the filters; null (with the reason) when its answer cannot be used. */
  async function askModel(question: string, context: QuestionContext): Promise<{ ok: true; value: Omit<Understood, "amongShown"> & { likeTitle: string | null; likeMove: PriceMove | null } } | { ok: false; note: string }> {
    const prompt = {
      question,
      niches: context.niches,
      previous: context.previous
        ? {
            filters: context.previous.filters,
            products: context.previous.products.map((p, i) => ({ position: i + 1, title: p.title, price: p.priceCents / 100, niches: p.niches })),
          }
        : null,
    };
    let raw: unknown;
    try {
      raw = await ai!.callTool!({
        system: MODEL_SYSTEM,
        user: JSON.stringify(prompt),
        name: "search_products",
        description: "Search the product database with these filters.",
        parameters: modelAnswerJsonSchema(),
        timeoutMs: modelTimeoutMs,
        retry: false,
      });
    } catch (error) {
      if (!(error instanceof AiTextError)) throw error;
      const why =
        error.code === "timeout"
          ? `did not answer within ${Math.round(modelTimeoutMs / 100) / 10} s`
          : error.code === "malformed"
            ? "answered with something that is not JSON"
            : `could not be used (${error.message.replace(/\.$/, "")})`;
      return { ok: false, note: `The AI model ${why}, so the built-in parser read your question instead.` };
    }
    const checked = checkModelAnswer(raw, context.niches);
    if (!checked.ok) return { ok: false, note: `The AI model's answer did not fit the product search (${checked.reason}), so the built-in parser read your question instead.` };
    const m = splitModelAnswer(checked.answer);
    let filters = m.filters;
    const notes: string[] = [];
    const cannot = [...unsupportedPhrases(question)];
    for (const u of m.unsupported) {
      const sentence = `I can't filter by ${u.replace(/[.!]+$/, "")} yet.`;
      if (!cannot.includes(sentence)) cannot.push(sentence);
    }
    if (m.likePosition !== null) {
      const p = context.previous?.products[m.likePosition - 1];
      if (p) {
        const liked = likeProduct(filters, p, m.likeMove);
        filters = liked.filters;
        notes.push(liked.note);
      } else cannot.push(`The last answer has no product number ${m.likePosition}.`);
    }
    return { ok: true, value: { filters, source: SOURCES.model, notes, cannot, exclude: [], likeTitle: m.likePosition === null ? m.likeTitle : null, likeMove: m.likeMove } };
  }

  /**
   * A question turned into filters: the model's (when configured and its answer holds), else the built-in
   * parser's; a product named by title is looked up through the product service.
   */
  async function understand(user: AssistantUser, question: string, previous: QuestionContext["previous"], access: ResearchAccess): Promise<Understood> {
    const context: QuestionContext = { niches: await products.niches(), previous };
    let result: Omit<Understood, "amongShown"> & { likeTitle: string | null; likeMove: PriceMove | null };
    let amongShown = previous != null && asksAmongShown(question);
    const fallback: string[] = [];
    const model = ai ? await askModel(question, context) : null;
    if (model?.ok) result = model.value;
    else {
      if (model && !model.ok) fallback.push(model.note);
      const parsed = parseQuestion(question, context);
      amongShown = parsed.amongShown;
      result = { filters: parsed.filters, source: SOURCES.builtIn, notes: parsed.notes, cannot: parsed.cannot, exclude: [], likeTitle: parsed.likeTitle, likeMove: parsed.likeMove };
    }
    if (result.likeTitle) {
      const found = await products.search({ userId: user.id, access, query: productQuery({ q: result.likeTitle, sort: "relevance", pageSize: 1 }) });
      const hit = found.items[0];
      if (hit) {
        const liked = likeProduct(result.filters, toLike(hit), result.likeMove);
        result.filters = liked.filters;
        result.notes = [...result.notes, liked.note];
        result.exclude = [hit.objectID];
      } else {
        result.cannot = [...result.cannot, `I couldn't find a product called “${result.likeTitle}”, so I searched without it.`];
      }
    }
    return { filters: result.filters, source: result.source, notes: [...fallback, ...result.notes], cannot: result.cannot, exclude: result.exclude, amongShown };
  }

  /**
   * The words of the text filter that no product mentions are taken out and named: the parser left them
   * over because it did not understand them, and searching them would silently find nothing (issue 25).
   */
  async function withoutUnknownWords(user: AssistantUser, access: ResearchAccess, understood: Understood): Promise<Understood> {
    const text = understood.filters.q;
    if (!text) return understood;
    const words = text.split(/\s+/).filter(Boolean);
    const unknown: string[] = [];
    for (const word of words) {
      // The catalogue's own words, when the engine knows them: a search would read the last word as a prefix
      // ("zor" finds "Zorblat", "ads" finds "adjustable").
      const known = (await products.knowsWord?.(word)) ?? null;
      if (known === false) unknown.push(word);
      if (known !== null) continue;
      const found = await products.search({ userId: user.id, access, query: productQuery({ q: word, literal: true, pageSize: 1 }) });
      if (found.total === 0) unknown.push(word);
    }
    if (unknown.length === 0) return understood;
    const known = words.filter((w) => !unknown.includes(w));
    const filters = { ...understood.filters };
    if (known.length > 0) filters.q = known.join(" ");
    else delete filters.q;
    const them = unknown.length === 1 ? "it" : "them";
    const sentence = `I did not understand “${unknown.join(" ")}” and no product mentions ${them}, so I left ${them} out.`;
    return { ...understood, filters, cannot: [...understood.cannot, sentence] };
  }

  /**
   * An answer to a question, without saving it: the filters, the products (ANSWER_SIZE) and the words.
   * `previous` is the thread's last answer for a follow-up.
   */
  async function answer(user: AssistantUser, question: string, previous: QuestionContext["previous"] = null) {
    const access = researchAccess(user);
    const understood = await withoutUnknownWords(user, access, await understand(user, question, previous, access));
    const { filters } = understood;
    // The margin is after duty and fees (decision 065), figured with the layers in force on the day the refresh checked.
    if (usesMargin(filters)) understood.notes = [...understood.notes, marginMeaning((await landedMarginState(db)).asOf)];
    const problem = filtersProblem(filters);
    const gridParams = filtersToParams(filters).toString();
    if (problem) {
      return { understood, gridParams, products: [] as AnswerProduct[], total: 0, text: `I couldn't search with that: ${problem}. Try asking another way.` };
    }
    if (understood.amongShown && previous) {
      // "Which of these ...": the products just shown, as their cards are now, that pass the filters.
      const shown = await products.productCards(user.id, previous.products.map((p) => p.objectID), access);
      const kept = shown.filter((c) => factsPassFilters(factsOf(c), filters));
      const n = shown.length;
      const matched = kept.length === 0 ? "none matches" : kept.length === 1 ? "1 matches" : `${kept.length} match`;
      const described = describeFilters(filters).filter((d) => !d.startsWith("sorted by"));
      const text = [`Of the ${n} ${n === 1 ? "product" : "products"} I just showed, ${matched}${described.length > 0 ? ` ${described.join(", ")}` : ""}.`, ...understood.cannot].join(" ");
      return { understood, gridParams, products: withWhy(kept, filters), total: kept.length, text };
    }
    const params = filtersToParams(filters);
    params.set("pageSize", String(ANSWER_SIZE + understood.exclude.length));
    const result = await products.search({ userId: user.id, access, query: parseProductQuery(params) });
    const cards = result.items.filter((c) => !understood.exclude.includes(c.objectID)).slice(0, ANSWER_SIZE);
    const total = Math.max(0, result.total - result.items.filter((c) => understood.exclude.includes(c.objectID)).length);
    const described = describeFilters(filters);
    const searched = described.length > 0 ? `I searched for ${described.join(", ")}.` : "I searched every product, by winning score.";
    const count =
      cards.length === 0
        ? "No product matches: try a wider price band or fewer filters."
        : `${result.totalIsEstimate ? "About " : ""}${formatCount(total)} ${total === 1 ? "product matches" : "products match"}; here ${cards.length === 1 ? "is the top one" : `are the top ${cards.length}`}.`;
    const text = [searched, count, ...understood.cannot].join(" ");
    return { understood, gridParams, products: withWhy(cards, filters), total, text };
  }

  /** The grid's question box: the filters of a question, as the grid's URL parameters. */
  async function parseForGrid(user: AssistantUser, question: string) {
    const text = checkQuestion(question);
    const access = researchAccess(user);
    const understood = await withoutUnknownWords(user, access, await understand(user, text, null, access));
    return {
      query: understood.filters,
      gridParams: filtersToParams(understood.filters).toString(),
      source: understood.source,
      sourceLabel: sourceLabel(understood.source),
      notes: [...understood.notes, ...understood.cannot],
      problem: filtersProblem(understood.filters),
    };
  }

  function checkQuestion(raw: string): string {
    const text = raw.replace(/\s+/g, " ").trim();
    if (text === "") throw new AppError(422, "Write a question first, e.g. “pet products under $30 that are rising”.", { field: "text" });
    if (text.length > QUESTION_MAX_CHARS) {
      throw new AppError(422, `A question can be at most ${QUESTION_MAX_CHARS} characters; this one has ${text.length}.`, { field: "text", max: QUESTION_MAX_CHARS });
    }
    return text;
  }

  /** Asks a question in a thread: saves it and the answer, and returns the answer. */
  async function post(user: AssistantUser, threadId: number, raw: string): Promise<MessageView> {
    const thread = await owned(user.id, threadId);
    const text = checkQuestion(raw);
    const hourAgo = new Date(now().getTime() - 3_600_000);
    const recent = await db.threadMessage.count({ where: { userId: user.id, role: "user", createdAt: { gt: hourAgo } } });
    if (recent >= messagesPerHour) {
      // The hour's oldest question leaves the window first: that is when the next one is allowed.
      const oldest = await db.threadMessage.findFirst({
        where: { userId: user.id, role: "user", createdAt: { gt: hourAgo } },
        orderBy: { createdAt: "asc" },
        select: { createdAt: true },
      });
      const retryAfterSeconds = oldest ? Math.max(1, Math.ceil((oldest.createdAt.getTime() - hourAgo.getTime()) / 1000)) : 60;
      throw new AppError(429, `You have asked ${messagesPerHour} questions in the last hour. Wait a few minutes and ask again.`, { retryAfterSeconds });
    }
    const access = researchAccess(user);
    const previous = await previousOf(user, threadId, access);
    const a = await answer(user, text, previous);
    const notes = [...a.understood.notes];
    const at = now();
    const saved = await db.$transaction(async (tx) => {
      const hasMessages = (await tx.threadMessage.count({ where: { threadId } })) > 0;
      await tx.threadMessage.create({ data: { threadId, userId: user.id, role: "user", text, createdAt: at }, select: { id: true } });
      const row = await tx.threadMessage.create({
        data: {
          threadId,
          userId: user.id,
          role: "assistant",
          text: a.text,
          query: a.gridParams,
          productIds: JSON.stringify(a.products.map((p) => p.objectID)),
          source: a.understood.source,
          notes: JSON.stringify(notes),
          total: a.total,
          createdAt: new Date(at.getTime() + 1),
        },
        select: messageSelect,
      });
      await tx.thread.update({
        where: { id: threadId },
        data: { updatedAt: at, ...(thread.title === DEFAULT_THREAD_TITLE && !hasMessages ? { title: clip(text, 60) } : {}) },
        select: { id: true },
      });
      return row;
    });
    const message = view(saved, new Map(a.products.map((p) => [p.objectID, p])));
    return { ...message, products: a.products };
  }

  return { list, create, rename, remove, get, post, answer, parseForGrid, modelConfigured: ai !== null };
}

export type Assistant = ReturnType<typeof createAssistant>;
