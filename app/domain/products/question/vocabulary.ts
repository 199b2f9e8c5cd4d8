// The parser's vocabulary: niche words, words that carry no filter, what the grid cannot do, stage and sort
// phrases, ordinals, and the cues of a follow-up, a fresh start and "which of these".
import type { Sort, Stage } from "~/domain/products/product-query";

/** Words for niches; a word maps to a niche only when the catalogue has that slug. Longest phrases win. */
export const NICHE_SYNONYMS: Record<string, string[]> = {
  pets: ["pet toys", "dog toys", "cat toys", "chew toys", "pet", "pets", "dog", "dogs", "puppy", "puppies", "cat", "cats", "kitten", "kittens", "doggy", "pet supplies"],
  kitchen: ["kitchen", "cooking", "cook", "kitchenware", "kitchen gadgets"],
  bakeware: ["baking", "bakeware", "bake", "baker", "bakers"],
  "coffee-tea": ["coffee", "tea", "espresso", "barista", "coffee and tea"],
  drinkware: ["drinkware", "tumbler", "tumblers", "water bottle", "water bottles", "mug", "mugs", "hydration"],
  beauty: ["beauty", "makeup", "make-up", "cosmetics", "nails", "lashes"],
  skincare: ["skincare", "skin care", "skin", "facial", "face care"],
  "hair-care": ["hair", "haircare", "hair care", "hairstyling"],
  fitness: ["fitness", "gym", "workout", "workouts", "exercise", "home gym"],
  yoga: ["yoga", "pilates", "meditation"],
  "home-decor": ["decor", "home decor", "home decoration", "interior", "decoration"],
  lighting: ["lighting", "lights", "lamp", "lamps", "led"],
  "smart-home": ["smart home", "home automation", "smart-home"],
  "phone-accessories": ["phone", "phones", "phone accessories", "iphone", "android", "mobile"],
  "tech-gadgets": ["tech", "gadget", "gadgets", "electronics", "tech gadgets"],
  audio: ["audio", "headphones", "earbuds", "speaker", "speakers", "music"],
  gaming: ["gaming", "gamer", "gamers", "video games"],
  office: ["office", "home office", "work from home", "wfh", "desk"],
  stationery: ["stationery", "planner", "planners", "journaling", "pens"],
  baby: ["baby", "babies", "newborn", "newborns", "infant", "infants", "nursery"],
  "kids-toys": ["kids", "kid", "toys", "toy", "children", "child", "kids toys"],
  outdoor: ["outdoor", "outdoors", "backyard", "patio"],
  camping: ["camping", "camp", "hiking"],
  fishing: ["fishing", "angler", "anglers"],
  cycling: ["cycling", "bike", "bikes", "bicycle", "bicycles"],
  "car-accessories": ["car", "cars", "auto", "automotive", "car accessories", "vehicle"],
  travel: ["travel", "traveling", "travelling", "luggage", "travellers", "travelers"],
  bags: ["bags", "bag", "backpack", "backpacks", "handbag", "handbags", "purse", "purses"],
  jewelry: ["jewelry", "jewellery", "necklace", "necklaces", "earrings", "bracelet", "bracelets"],
  watches: ["watch", "watches"],
  "fashion-accessories": ["fashion", "fashion accessories", "sunglasses", "scarf", "scarves"],
  shoes: ["shoes", "shoe", "sneakers", "footwear"],
  health: ["health", "wellness", "healthcare", "posture"],
  sleep: ["sleep", "sleeping", "insomnia"],
  massage: ["massage", "massager", "massagers"],
  bathroom: ["bathroom", "bath", "shower"],
  cleaning: ["cleaning", "cleaner", "cleaners"],
  "storage-organization": ["storage", "organization", "organisation", "organizer", "organizers", "organiser", "declutter"],
  gardening: ["garden", "gardening", "gardeners", "plants"],
  "tools-diy": ["tools", "tool", "diy"],
  "party-supplies": ["party", "parties", "party supplies", "birthday", "wedding"],
  crafts: ["crafts", "craft", "crafting", "sewing", "knitting"],
};

/**
 * Niche words that name a kind of product inside the niche: they choose the niche and are searched as words too,
 * so "dog toys" finds the dog toys, not every pet product by score (issue 35). The other niche words ("pets",
 * "kitchen", "cooking") name only the niche.
 */
export const PRODUCT_NOUNS = new Set(
  [
    "pet toys", "dog toys", "cat toys", "chew toys", "dog", "dogs", "puppy", "puppies", "cat", "cats", "kitten", "kittens", "doggy",
    "espresso", "tumbler", "tumblers", "water bottle", "water bottles", "mug", "mugs", "nails", "lashes",
    "lamp", "lamps", "iphone", "android", "headphones", "earbuds", "speaker", "speakers", "desk", "planner", "planners", "pens",
    "backpack", "backpacks", "handbag", "handbags", "purse", "purses",
    "necklace", "necklaces", "earrings", "bracelet", "bracelets", "sunglasses", "scarf", "scarves", "sneakers",
    "massager", "massagers", "organizer", "organizers", "organiser", "plants", "birthday", "wedding", "sewing", "knitting",
  ],
);

/** Words that carry no filter: never turned into search text. */
export const STOP_WORDS = new Set(
  (
    "a an the and or but of for to in on at by with from into that which who whose what show me find give get i im i'm i'd i've we're let's " +
    "we my our you your want need looking look search searching some any all please can could would should there " +
    "products product items item stuff things thing ones one those these them they it its is are be been being was were " +
    "sell selling sold seller sellers niche niches idea ideas good great nice cool really very more most less least " +
    "now also just only same than then this that's so too some something anything list lists ok okay thanks thank " +
    "how about what's whats do does price priced prices cost costs costing dollar dollars usd bucks margin margins " +
    "order orders sale sales sorted sort rank ranked ranking order by per store stores shop shops dropshipping " +
    "dropship winning winners winner trend trends trendy category categories kind kinds type types sort of " +
    "here again instead other another like similar such as well right where when while have has had lot lots of " +
    "new ones today week month year days day still gear fast quick quickly accessories accessory"
  ).split(/\s+/),
);

/** Things the grid cannot filter by: said in a sentence, and their words kept out of everything else. */
export const CANNOT: { re: RegExp; say: string }[] = [
  {
    re: /\b(?:ships?|shipping|shipped|delivery|delivered|deliver|warehouse)\b(?:\s+(?:from|to|in|within|country|countries|time|times))?(?:\s+(?:the\s+)?(?:us|usa|uk|eu|europe|china|canada|australia|germany|france|[a-z]+ ?days?))?|\b(?:shipping|destination) country\b|\bfast shipping\b|\bfree shipping\b|\bships? (?:fast|quickly)\b|\b(?:us|usa|uk|eu|china)[- ](?:based|warehouse|suppliers?)\b/,
    say: "I can't filter by shipping country, delivery time or free shipping yet.",
  },
  { re: /\b(?:reviews?|ratings?|rated|stars?|\d(?:\.\d)? stars?)\b/, say: "I can't filter by reviews or ratings: the catalogue does not keep them." },
  { re: /\b(?:brands?|branded|brand name)\b/, say: "I can't filter by brand: the catalogue's products are brand-less." },
  { re: /\b(?:colou?rs?|sizes?|sized|variants?)\b/, say: "I can't filter by colour or size yet." },
  {
    re: /\b(?:supplier|suppliers|aliexpress|alibaba|cj ?dropshipping|zendrop|temu)\b/,
    say: "I can't filter by supplier yet.",
  },
  {
    re: /\b(?:tiktok|tik tok|instagram|facebook|youtube|pinterest|meta ads?)\b/,
    say: "I can't filter by social platform: views and engagement are counted across platforms.",
  },
  { re: /\b(?:in stock|stock levels?|inventory)\b/, say: "I can't filter by stock: the catalogue does not track it." },
  { re: /\b(?:weight|weighs|lightweight|grams?|kg|pounds? heavy)\b/, say: "I can't filter by weight yet." },
];

export const STAGE_PHRASES: { re: RegExp; stage: Stage }[] = [
  { re: /\b(?:trending up|on the rise|up and coming|taking off|heating up|gaining (?:traction|momentum)|growing|growth|rising|risers?|going up)\b/, stage: "rising" },
  { re: /\b(?:trending down|on the way down|cooling (?:off|down)|fading|dying|declining|decline|in decline|falling|going down)\b/, stage: "declining" },
  { re: /\b(?:at (?:their|its|the) peak|peaking|peaked|peak|mature|established|saturating)\b/, stage: "peak" },
  { re: /\b(?:emerging|brand new|just launched|early stage|early|fresh|new)\b/, stage: "emerging" },
];

export const SORT_PHRASES: { re: RegExp; sort: Sort }[] = [
  { re: /\b(?:most orders|best[- ]?sell(?:ing|ers?)|top[- ]?sell(?:ing|ers?)|most sold|most popular|sell(?:ing)? the most|by orders|sort(?:ed)? by orders|by sales|most sales)\b/, sort: "orders" },
  { re: /\b(?:highest margins?|best margins?|most profitable|by margins?|sort(?:ed)? by margins?|biggest margins?|top margins?)\b/, sort: "margin" },
  { re: /\b(?:most revenue|highest revenue|top grossing|by revenue|sort(?:ed)? by revenue|biggest revenue)\b/, sort: "revenue" },
  { re: /\b(?:cheapest(?: first)?|lowest price(?:d)?|price low to high|low to high|by price(?: ascending)?|sort(?:ed)? by price)\b/, sort: "price-asc" },
  { re: /\b(?:most expensive|priciest|highest price(?:d)?|price high to low|high to low)\b/, sort: "price" },
  { re: /\b(?:newest|latest|most recent|recently added|just added|by date)\b/, sort: "newest" },
  { re: /\b(?:trending(?: now)?|hottest|hot right now|fastest growing|viral)\b/, sort: "trending" },
  { re: /\b(?:random|surprise me|shuffle(?:d)?)\b/, sort: "random" },
  { re: /\b(?:best|top|winning|highest scor(?:e|ing)|by score|sort(?:ed)? by score|winners)\b/, sort: "winning-score" },
];

export const ORDINALS: Record<string, number> = {
  first: 1, "1st": 1, second: 2, "2nd": 2, third: 3, "3rd": 3, fourth: 4, "4th": 4, fifth: 5, "5th": 5,
  sixth: 6, "6th": 6, seventh: 7, "7th": 7, eighth: 8, "8th": 8, ninth: 9, "9th": 9, tenth: 10, "10th": 10,
};

function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

export interface NicheMatcher {
  /** One alternation of every phrase, longest first (so "pet toys" wins over "toys"). */
  source: string;
  slugOf: Map<string, string>;
}

const matchers = new Map<string, NicheMatcher>();

/** The catalogue's niches as one matcher of their synonym phrases, built once per niche list. */
export function nicheMatcher(niches: readonly string[]): NicheMatcher {
  const key = niches.join(",");
  let m = matchers.get(key);
  if (m) return m;
  const slugOf = new Map<string, string>();
  for (const slug of niches) {
    for (const phrase of [slug.replace(/-/g, " "), slug, ...(NICHE_SYNONYMS[slug] ?? [])]) if (!slugOf.has(phrase)) slugOf.set(phrase, slug);
  }
  const phrases = [...slugOf.keys()].sort((a, b) => b.length - a.length);
  m = { source: phrases.length ? `(${phrases.map(escapeRe).join("|")})s?(?=$|[\\s|,.!?"'])` : "(?!)", slugOf };
  if (matchers.size > 50) matchers.clear();
  matchers.set(key, m);
  return m;
}

export const FOLLOW_UP_CUE = /^\s*(?:and|also|now|only|just|but|what about|how about|same but|same|make (?:it|them)|show (?:me )?(?:only|just)|narrow|filter|refine|more like|cheaper|pricier|more expensive|less expensive|sort(?:ed)? by|order(?:ed)? by|then|ok|okay|instead|without)\b/;
/** "Which of these", "any of those", "among them": the products the last answer showed (issue 25). */
export const AMONG_SHOWN = /\b(?:(?:which|any|how many|what|all|none|some|one)\s+of\s+(?:these|those|them|the ones you showed)|among (?:these|those|them)|out of (?:these|those))\b/;

export const FRESH_CUE = /\b(?:new search|start over|start again|forget (?:that|it|those)|from scratch|something else entirely)\b/;
