// AI text: the copy of a product page and the script of a video ad. With AI_BASE_URL + AI_MODEL (+ AI_API_KEY) set, any
// OpenAI-compatible chat-completions endpoint writes it; without them the built-in writer composes it
// from the product's own data with templates (labelled "built-in writer" wherever it is shown).
// Either way the answer is plain text that app/domain/product-pages/product-page.ts turns into safe HTML; model
// HTML is never passed on without sanitising.
import { AD_LIMITS, fitAdScript, SCENE_KINDS, type AdScene, type AdScript, type SceneKind } from "~/domain/ai-ads/ai-ads";
import {
  adCtaLine,
  adHookOptions,
  adProblemLine,
  adProductLine,
  adShortName,
  fixArticles,
  withoutShippingClaim,
  type AdWordsFacts,
} from "~/domain/ai-ads/ad-writing";
import { formatCount } from "~/domain/products/insights";
import {
  BUILT_IN_WRITER,
  centsToDecimal,
  cleanTitle,
  PAGE_LIMITS,
  paragraphsToHtml,
  sanitizeHtml,
  squish,
  summarize,
  truncateAtWord,
} from "~/domain/product-pages/product-page";

/** What the writer knows about a product: its own data, nothing invented. */
export interface ProductFacts {
  title: string;
  description: string;
  niches: string[];
  tags: string[];
  /** The winning-score reasons (seller-facing figures); only their gist may reach shoppers. */
  reasons: string[];
  /** The seller's brand kit (docs/decisions/033): how the copy should sound, and the brand's name and tagline. */
  voice?: { tone: string; brandName: string; tagline: string } | null;
}

/** A page's copy. descriptionHtml is already safe (escaped text or sanitised HTML). */
export interface PageCopy {
  title: string;
  descriptionHtml: string;
  bullets: string[];
  seoTitle: string;
  seoDescription: string;
}

/** What an ad script may use: the product's data and its real figures (never invented ones). */
export interface AdFacts extends ProductFacts {
  /** Orders in the last 30 days. */
  orders: number;
  storesSelling: number;
  /** The selling price in US cents; 0 when unknown or in another currency (the copy then names no price). */
  priceCents: number;
  /** Hooks of TikTok videos the seller saved for this product (captions without hashtags): what worked. */
  references?: { hook: string; author: string | null }[];
  /** The seller says their store ships this product free (the ad form's setting, off by default, decision 085). */
  freeShipping?: boolean;
}

export interface AiText {
  /** "built-in writer", or the model's name. */
  readonly writer: string;
  writeProductPage(facts: ProductFacts): Promise<PageCopy>;
  /** A 4-6 scene script (hook, problem, product, social proof, call to action), fitted to 12-20 s. */
  writeAdScript(facts: AdFacts): Promise<AdScript>;
  /**
   * Structured output (the research assistant's product query): the model is made to call the one tool
   * described, and its arguments come back parsed from JSON but unchecked (the caller validates them).
   * Absent on the built-in writer, which has no model.
   */
  callTool?(request: ToolRequest): Promise<unknown>;
}

/** One forced function call in the OpenAI chat-completions shape (tools + tool_choice). */
export interface ToolRequest {
  system: string;
  user: string;
  name: string;
  description: string;
  /** JSON schema of the arguments. */
  parameters: Record<string, unknown>;
  /** Overrides the adapter's timeout for this call (a person is waiting for the answer). */
  timeoutMs?: number;
  /** Whether a 429 or 5xx is asked again once (default true). */
  retry?: boolean;
}

export type AiTextErrorCode =
  "unauthorized" | "rate_limited" | "server_error" | "bad_request" | "timeout" | "unreachable" | "malformed";

export class AiTextError extends Error {
  constructor(
    readonly code: AiTextErrorCode,
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = "AiTextError";
  }
}

export interface AiTextConfig {
  baseUrl?: string;
  apiKey?: string;
  model?: string;
  /** Per request; default 20 s. */
  timeoutMs?: number;
  /** Wait before the one retry after a 429 or 5xx when the server sends no Retry-After; default 1 s. */
  retryDelayMs?: number;
  /** The longest Retry-After we honour; default 10 s. */
  maxRetryDelayMs?: number;
  temperature?: number;
  fetch?: typeof fetch;
}

/** The chat endpoint when base URL and model are set, the built-in writer otherwise. */
export function createAiText(config: AiTextConfig = {}): AiText {
  if (config.baseUrl && config.model)
    return createChatCompletionsWriter({ ...config, baseUrl: config.baseUrl, model: config.model });
  return builtInWriter;
}

// ---- Copy clean-up shared by both writers ----------------------------------------------------------

function clampCopy(copy: {
  title: string;
  descriptionHtml: string;
  bullets: string[];
  seoTitle: string;
  seoDescription: string;
}): PageCopy {
  const L = PAGE_LIMITS;
  const title = cleanTitle(copy.title, L.titleTarget);
  const bullets = copy.bullets
    .map((b) => truncateAtWord(b.replace(/^[\s•*\-–]+/, ""), L.bulletMax))
    .filter(Boolean)
    .slice(0, L.bulletsMax);
  return {
    title,
    descriptionHtml: copy.descriptionHtml,
    bullets,
    seoTitle: truncateAtWord(copy.seoTitle || title, L.seoTitleMax),
    seoDescription: truncateAtWord(copy.seoDescription, L.seoDescriptionMax),
  };
}

// ---- The built-in writer ---------------------------------------------------------------------------

function humanNiche(slug: string): string {
  return slug.replace(/[-_]+/g, " ").trim();
}

function listWords(words: string[]): string {
  if (words.length <= 1) return words.join("");
  return `${words.slice(0, -1).join(", ")} and ${words[words.length - 1]}`;
}

function sentenceCase(s: string): string {
  const t = squish(s);
  return t ? t.charAt(0).toUpperCase() + t.slice(1) : t;
}

function endWithPeriod(s: string): string {
  return /[.!?]$/.test(s) ? s : `${s}.`;
}

/**
 * What the reasons may tell a shopper: only the gist of demand ("popular right now"), never the
 * seller's figures (margin, stores selling, exact order counts belong to the seller).
 */
function shopperSignals(reasons: string[]): string[] {
  const out: string[] = [];
  const text = reasons.join(" | ").toLowerCase();
  if (/orders \+\d+%|none the week before/.test(text)) out.push("trending right now");
  if (/[\d.,]+[kmb]? orders in 30 days/.test(text) && !/no orders/.test(text))
    out.push("a proven favourite with shoppers");
  if (/views in 30 days/.test(text) && !/no views/.test(text)) out.push("getting attention on social media");
  return out;
}

/** Composes copy from the product's own title, description, niches, tags and reasons. Deterministic. */
export function writeBuiltInCopy(facts: ProductFacts): PageCopy {
  const title = cleanTitle(facts.title);
  const description = squish(facts.description) || title;
  const niches = facts.niches.map(humanNiche).filter(Boolean);
  const tags = facts.tags.map(squish).filter(Boolean);
  const signals = shopperSignals(facts.reasons);
  const sentences = (description.match(/[^.!?]+[.!?]+/g) ?? [description]).map((s) => squish(s)).filter(Boolean);

  const paragraphs: string[] = [];
  paragraphs.push(`Meet the ${title}. ${endWithPeriod(sentenceCase(sentences[0] ?? description))}`);
  const rest = sentences.slice(1);
  if (rest.length > 0) paragraphs.push(rest.map((s) => endWithPeriod(sentenceCase(s))).join(" "));
  // Niches are catalogue category names ("bags", "baby", "pet supplies", "cycling"): they read right
  // only as a category ("our bags range"), never as people ("bags lovers", "anyone into baby").
  const nicheLine =
    niches.length > 0 ? `A pick from our ${listWords(niches.slice(0, 3))} range` : "Picked for everyday use";
  const signalLine = signals.length > 0 ? `, and ${signals[0]}` : "";
  const giftLine = tags.some((t) => /gift/i.test(t)) ? " It also makes a thoughtful gift." : "";
  paragraphs.push(`${nicheLine}${signalLine}.${giftLine} Order today and see the difference it makes.`);

  const bullets: string[] = [];
  for (const s of sentences.slice(0, 4)) bullets.push(sentenceCase(s.replace(/[.!?]+$/, "")));
  if (tags.some((t) => /free shipping/i.test(t))) bullets.push("Free shipping");
  if (signals.length > 0) bullets.push(sentenceCase(signals[0]));
  if (niches.length > 0) bullets.push(`Part of our ${listWords(niches.slice(0, 2))} range`);
  const unique = [...new Set(bullets.map(squish).filter(Boolean))].slice(0, 5);
  if (unique.length === 0) unique.push(title);

  const seoTitleBase = niches[0] ? `${title} | ${sentenceCase(niches[0])}` : title;
  return clampCopy({
    title,
    descriptionHtml: paragraphsToHtml(paragraphs),
    bullets: unique,
    seoTitle: seoTitleBase.length <= PAGE_LIMITS.seoTitleMax ? seoTitleBase : title,
    seoDescription: summarize(`${title}: ${description}`, PAGE_LIMITS.seoDescriptionMax),
  });
}

function wordsFacts(facts: AdFacts): AdWordsFacts {
  return {
    title: facts.title,
    description: facts.description,
    niches: facts.niches,
    tags: facts.tags,
    orders: facts.orders,
    storesSelling: facts.storesSelling,
    priceCents: facts.priceCents,
    tone: facts.voice?.tone ?? null,
    savedHooks: facts.references?.map((r) => r.hook) ?? [],
    freeShipping: facts.freeShipping === true,
  };
}

/**
 * An ad script from the product's own data with templates in the kit's tone (app/domain/ai-ads/ad-writing.ts), with
 * three hooks to pick from. Deterministic. Every line is worded to fit, never cut. Social proof quotes only
 * real figures (30-day orders, stores selling); without any, the ad has four scenes and no proof.
 */
export function writeBuiltInAdScript(facts: AdFacts): AdScript {
  const words = wordsFacts(facts);
  const hooks = adHookOptions(words);
  const scenes: AdScene[] = [
    { kind: "hook", text: hooks[0], durationMs: 2500 },
    { kind: "problem", text: adProblemLine(words), durationMs: 3000 },
    { kind: "product", text: adProductLine(words), durationMs: 4500 },
  ];
  if (facts.orders > 0) {
    scenes.push({ kind: "proof", text: `${formatCount(facts.orders)} ${facts.orders === 1 ? "order" : "orders"} in the last 30 days`, durationMs: 3000 });
  } else if (facts.storesSelling > 1) {
    scenes.push({ kind: "proof", text: `Already sold by ${formatCount(facts.storesSelling)} stores`, durationMs: 3000 });
  }
  scenes.push({ kind: "cta", text: adCtaLine(words), durationMs: 3000 });
  return fitAdScript({ title: `${adShortName(facts.title)} ad`, scenes, hooks });
}

/**
 * A model's script held to the rules the built-in writer keeps by construction (decision 085): every "a"/"an"
 * matching its next word, and no promise of free shipping unless the seller made it (a scene that said nothing
 * else gets the built-in call to action; a hook that said nothing else is dropped).
 */
export function keepAdPromises(script: AdScript, facts: AdFacts): AdScript {
  const mend = (text: string) => fixArticles(facts.freeShipping ? text : withoutShippingClaim(text));
  const scenes = script.scenes.map((scene) => {
    const text = mend(scene.text);
    return { ...scene, text: text.length >= AD_LIMITS.textMin ? text : scene.kind === "cta" ? adCtaLine(wordsFacts(facts)) : mend(adProductLine(wordsFacts(facts))) };
  });
  const hooks = script.hooks?.map(mend).filter((h) => h.length >= AD_LIMITS.textMin);
  return { ...script, scenes, ...(hooks ? { hooks } : {}) };
}

/** Hooks for the seller to pick from when the writer gave none (a model's script): the built-in writer's. */
export function builtInHookOptions(facts: AdFacts): string[] {
  return adHookOptions(wordsFacts(facts));
}

export const builtInWriter: AiText = {
  writer: BUILT_IN_WRITER,
  writeProductPage: async (facts) => writeBuiltInCopy(facts),
  writeAdScript: async (facts) => writeBuiltInAdScript(facts),
};

// ---- OpenAI-compatible chat completions ------------------------------------------------------------

const SYSTEM_PROMPT = [
  "You write Shopify product pages for a small online store.",
  "Answer with one JSON object only, no prose and no code fences, with exactly these keys:",
  '"title" (string, at most 80 characters, no brand names you were not given),',
  '"paragraphs" (array of 2 to 4 plain-text paragraphs, no HTML, no markdown),',
  '"bullets" (array of 3 to 6 short plain-text benefits),',
  `"seoTitle" (string, at most ${PAGE_LIMITS.seoTitleMax} characters),`,
  `"seoDescription" (string, at most ${PAGE_LIMITS.seoDescriptionMax} characters).`,
  "Use only the facts given. Never invent certifications, materials, sizes, reviews, guarantees or sales figures.",
  "The 'signals' are for tone only: do not quote numbers from them.",
  "When 'voice' is given, write in its tone of voice.",
].join(" ");

/** The product as both prompts describe it: its own words, nothing else. */
function promptProduct(facts: ProductFacts) {
  return { title: squish(facts.title), description: squish(facts.description), niches: facts.niches, tags: facts.tags };
}

/** The brand kit's voice for a prompt: its tone of voice, name and tagline, when the seller has one. */
function promptVoice(facts: ProductFacts) {
  const v = facts.voice;
  if (!v || (!v.tone && !v.tagline)) return undefined;
  return { toneOfVoice: v.tone || null, brandName: v.brandName || null, tagline: v.tagline || null };
}

function userPrompt(facts: ProductFacts): string {
  return JSON.stringify({ product: promptProduct(facts), signals: facts.reasons, voice: promptVoice(facts) });
}

const AD_SYSTEM_PROMPT = [
  "You write the script of a short vertical video ad (TikTok, Reels) for one product.",
  "Answer with one JSON object only, no prose and no code fences, with exactly these keys:",
  `"title" (string, at most ${AD_LIMITS.titleMax} characters, a name for the ad),`,
  `"scenes" (array of ${AD_LIMITS.scenesMin} to ${AD_LIMITS.scenesMax} objects in this order: a "hook", a "problem",`,
  'the "product" and its benefits, "proof" (social proof), a "cta" (call to action); each object has',
  `"kind" (one of ${SCENE_KINDS.map((k) => `"${k}"`).join(", ")}), "text" (the on-screen text, at most ${AD_LIMITS.textMax} characters)`,
  `and "seconds" (how long it shows, ${AD_LIMITS.sceneMinMs / 1000} to ${AD_LIMITS.sceneMaxMs / 1000});`,
  `"hooks" (array of 2 other hooks, each at most ${AD_LIMITS.textMax} characters, for the seller to pick from).`,
  `The whole ad lasts ${AD_LIMITS.totalMinMs / 1000} to ${AD_LIMITS.totalMaxMs / 1000} seconds.`,
  "Use only the facts given. Social proof may quote only the figures in 'figures'; leave the proof scene out",
  "when there are none. Never invent reviews, ratings, guarantees or discounts.",
  "Promise free shipping or delivery only when 'shipping' says the store ships free; otherwise never mention shipping.",
  "When 'voice' is given, write in its tone of voice and end on its tagline where it fits.",
  "'references' are hooks of TikTok videos that worked for this product: take after their angle, never copy them word for word.",
].join(" ");

function adPrompt(facts: AdFacts): string {
  return JSON.stringify({
    product: { ...promptProduct(facts), price: facts.priceCents > 0 ? `$${centsToDecimal(facts.priceCents)}` : null },
    figures: {
      ordersLast30Days: facts.orders > 0 ? facts.orders : null,
      storesSelling: facts.storesSelling > 0 ? facts.storesSelling : null,
    },
    voice: promptVoice(facts),
    shipping: facts.freeShipping ? "The store ships this product free." : "Unknown: do not mention shipping.",
    references: facts.references?.length ? facts.references.map((r) => r.hook) : undefined,
  });
}

/** Strips code fences and parses the model's JSON object, or says why it cannot. */
function modelJson(content: unknown): Record<string, unknown> {
  if (typeof content !== "string" || content.trim() === "") {
    throw new AiTextError("malformed", "The AI model answered with no text.");
  }
  const stripped = content
    .trim()
    .replace(/^```(?:json)?\s*/i, "")
    .replace(/\s*```$/, "");
  try {
    const data: unknown = JSON.parse(stripped);
    if (data && typeof data === "object" && !Array.isArray(data)) return data as Record<string, unknown>;
  } catch {
    // reported below
  }
  throw new AiTextError("malformed", "The AI model's answer was not valid JSON.");
}

/** The model's ad script, read leniently and fitted to the ad rules; too few usable scenes is malformed. */
export function parseModelAdScript(content: unknown): AdScript {
  const o = modelJson(content);
  const raw = Array.isArray(o.scenes) ? (o.scenes as unknown[]) : [];
  const scenes: AdScene[] = [];
  for (const item of raw) {
    const s = (item ?? {}) as Record<string, unknown>;
    const text = typeof s.text === "string" ? squish(s.text) : "";
    if (!text) continue;
    const kind = SCENE_KINDS.includes(s.kind as SceneKind) ? (s.kind as SceneKind) : "product";
    const secs = typeof s.seconds === "number" ? s.seconds : Number(s.seconds);
    scenes.push({ kind, text, durationMs: Number.isFinite(secs) ? Math.round(secs * 1000) : 3000 });
  }
  if (scenes.length < AD_LIMITS.scenesMin) {
    throw new AiTextError(
      "malformed",
      `The AI model's script has ${scenes.length} usable scenes; an ad needs at least ${AD_LIMITS.scenesMin}.`,
    );
  }
  const title = typeof o.title === "string" && squish(o.title) ? o.title : "Video ad";
  const hooks = Array.isArray(o.hooks)
    ? (o.hooks as unknown[])
        .filter((h): h is string => typeof h === "string")
        .map(squish)
        .filter((h) => h.length >= AD_LIMITS.textMin && h.length <= AD_LIMITS.textMax)
    : [];
  const first = scenes.find((sc) => sc.kind === "hook")?.text;
  const options = [...new Set([...(first ? [first] : []), ...hooks])].slice(0, 3);
  return fitAdScript({ title, scenes, ...(options.length > 1 ? { hooks: options } : {}) });
}

interface ChatCompletionResponse {
  choices?: { message?: { content?: unknown; tool_calls?: { function?: { name?: unknown; arguments?: unknown } }[] } }[];
}

function parseRetryAfter(header: string | null): number | null {
  if (!header) return null;
  const seconds = Number(header);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(header);
  return Number.isFinite(date) ? Math.max(0, date - Date.now()) : null;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The model's JSON, read leniently (code fences stripped) and checked strictly. */
export function parseModelCopy(content: unknown): PageCopy {
  const o = modelJson(content);
  const str = (k: string) => (typeof o?.[k] === "string" ? squish(o[k] as string) : "");
  const strings = (k: string) =>
    Array.isArray(o?.[k]) ? (o[k] as unknown[]).filter((x): x is string => typeof x === "string") : [];
  const title = str("title");
  const paragraphs = strings("paragraphs");
  const bullets = strings("bullets").map(squish).filter(Boolean);
  // A model that ignores the instructions and sends HTML gets it sanitised, never passed through.
  const descriptionHtml =
    paragraphs.length > 0 ? paragraphsToHtml(paragraphs) : sanitizeHtml(str("descriptionHtml") || str("description"));
  const missing = [
    !title && "title",
    !descriptionHtml && "paragraphs",
    bullets.length === 0 && "bullets",
    !str("seoDescription") && "seoDescription",
  ].filter(Boolean);
  if (missing.length > 0) {
    throw new AiTextError("malformed", `The AI model's answer is missing ${missing.join(", ")}.`);
  }
  return clampCopy({
    title,
    descriptionHtml,
    // Bullets stay plain text: they are escaped wherever they become HTML, so markup shows as text.
    bullets,
    seoTitle: str("seoTitle"),
    seoDescription: str("seoDescription"),
  });
}

function createChatCompletionsWriter(config: AiTextConfig & { baseUrl: string; model: string }): AiText {
  const doFetch = config.fetch ?? fetch;
  const timeoutMs = config.timeoutMs ?? 20_000;
  const retryDelayMs = config.retryDelayMs ?? 1000;
  const maxRetryDelayMs = config.maxRetryDelayMs ?? 10_000;
  const url = `${config.baseUrl.replace(/\/+$/, "")}/chat/completions`;
  const host = new URL(url).host;

  async function post(body: Record<string, unknown>, timeout = timeoutMs): Promise<Response> {
    const headers: Record<string, string> = { "content-type": "application/json", accept: "application/json" };
    if (config.apiKey) headers.authorization = `Bearer ${config.apiKey}`;
    try {
      return await doFetch(url, {
        method: "POST",
        headers,
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(timeout),
      });
    } catch (error) {
      const name = (error as { name?: string }).name;
      if (name === "TimeoutError" || name === "AbortError") {
        throw new AiTextError(
          "timeout",
          `The AI endpoint (${host}) did not answer within ${Math.round(timeout / 100) / 10} s.`,
        );
      }
      throw new AiTextError(
        "unreachable",
        `The AI endpoint (${host}) could not be reached: ${(error as Error).message}.`,
      );
    }
  }

  async function complete(system: string, user: string): Promise<string> {
    const body: Record<string, unknown> = {
      model: config.model,
      messages: [
        { role: "system", content: system },
        { role: "user", content: user },
      ],
      temperature: config.temperature ?? 0.7,
      response_format: { type: "json_object" },
    };
    return request(body, (json) => {
      const content = json?.choices?.[0]?.message?.content;
      if (typeof content !== "string")
        throw new AiTextError("malformed", "The AI endpoint's answer has no choices[0].message.content.");
      return content;
    });
  }

  async function request<T>(
    body: Record<string, unknown>,
    read: (json: ChatCompletionResponse) => T,
    options: { timeoutMs?: number; retry?: boolean } = {},
  ): Promise<T> {
    let retried = options.retry === false;
    for (;;) {
      let res = await post(body, options.timeoutMs);
      // Some OpenAI-compatible servers do not know response_format: ask again without it, once.
      if (res.status === 400 && "response_format" in body) {
        const text = await res.text();
        if (/response_format|json_object|json mode/i.test(text)) {
          delete body.response_format;
          res = await post(body, options.timeoutMs);
        } else {
          throw new AiTextError("bad_request", `The AI endpoint refused the request (400): ${errorMessage(text)}`, 400);
        }
      }
      if (res.ok) {
        let json: ChatCompletionResponse;
        try {
          json = (await res.json()) as ChatCompletionResponse;
        } catch {
          throw new AiTextError("malformed", "The AI endpoint's answer was not JSON.");
        }
        return read(json);
      }
      const text = await res.text().catch(() => "");
      if (res.status === 401 || res.status === 403) {
        throw new AiTextError(
          "unauthorized",
          `The AI endpoint refused the API key (${res.status}): check AI_API_KEY. ${errorMessage(text)}`.trim(),
          res.status,
        );
      }
      if ((res.status === 429 || res.status >= 500) && !retried) {
        retried = true;
        const wait = Math.min(parseRetryAfter(res.headers.get("retry-after")) ?? retryDelayMs, maxRetryDelayMs);
        await sleep(wait);
        continue;
      }
      if (res.status === 429)
        throw new AiTextError(
          "rate_limited",
          `The AI endpoint is rate limiting requests (429). Try again in a minute.`,
          429,
        );
      if (res.status >= 500)
        throw new AiTextError(
          "server_error",
          `The AI endpoint failed (${res.status}). ${errorMessage(text)}`.trim(),
          res.status,
        );
      throw new AiTextError(
        "bad_request",
        `The AI endpoint refused the request (${res.status}): ${errorMessage(text)}`,
        res.status,
      );
    }
  }

  return {
    writer: config.model,
    async writeProductPage(facts) {
      return parseModelCopy(await complete(SYSTEM_PROMPT, userPrompt(facts)));
    },
    async writeAdScript(facts) {
      return keepAdPromises(parseModelAdScript(await complete(AD_SYSTEM_PROMPT, adPrompt(facts))), facts);
    },
    async callTool(call) {
      const body: Record<string, unknown> = {
        model: config.model,
        messages: [
          { role: "system", content: call.system },
          { role: "user", content: call.user },
        ],
        temperature: 0,
        tools: [{ type: "function", function: { name: call.name, description: call.description, parameters: call.parameters } }],
        tool_choice: { type: "function", function: { name: call.name } },
      };
      return request(
        body,
        (json) => {
          const message = json?.choices?.[0]?.message;
          const args = message?.tool_calls?.find((t) => t?.function?.name === call.name)?.function?.arguments;
          // A server without tool calls may answer the JSON as content instead: read either.
          if (typeof args === "string") return modelJson(args);
          if (args && typeof args === "object") return args;
          return modelJson(message?.content);
        },
        { timeoutMs: call.timeoutMs, retry: call.retry },
      );
    },
  };
}

/** The error message of an OpenAI-style error body ({ error: { message } }), or the text, shortened. */
function errorMessage(text: string): string {
  try {
    const j = JSON.parse(text) as { error?: { message?: string } | string; message?: string };
    const m = typeof j.error === "string" ? j.error : (j.error?.message ?? j.message);
    if (m) return truncateAtWord(m, 200);
  } catch {
    // not JSON
  }
  return truncateAtWord(text, 200);
}
