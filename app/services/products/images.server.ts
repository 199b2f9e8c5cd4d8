// Product pictures drawn for a category: /product-images/{objectID}-{n}.svg is drawn on request from
// the product's objectID, niche and title, the same picture every time (colours and shapes come from
// hashes, never from randomness), so a generated catalogue needs no image files. The drawing shows
// what the niche sells (a handbag for bags, a lamp for lighting: CATEGORY_DRAWINGS); it is also what a
// product with real image URLs shows until they are fetched, or when one could not be (decision 028).
// Unknown products and malformed names are not found.
import type { Db } from "~/db.server";

/** "{objectID}-{n}.svg", n from 1 to 20 (an import row holds at most 20 images). */
export const PRODUCT_IMAGE_FILE = /^([A-Za-z0-9._:-]{1,100})-([1-9]|1\d|20)\.svg$/;

export function parseProductImageFile(file: string): { objectID: string; n: number } | null {
  const m = PRODUCT_IMAGE_FILE.exec(file);
  return m ? { objectID: m[1], n: Number(m[2]) } : null;
}

/** FNV-1a, 32 bits. */
function hash32(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

function sequence(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), a | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function escapeXml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&apos;" })[c]!);
}

/** Words a caption may not end on: a cut there reads as a phrase broken off ("Reflective Leash for"). */
const TRAILING_FUNCTION_WORDS = new Set(["a", "an", "and", "as", "at", "by", "for", "from", "in", "into", "of", "on", "or", "the", "to", "with", "&", "-", "+"]);

/**
 * The title as the picture's caption: whole words (a "(Set of 4)" is one), wrapped onto at most `maxLines`
 * lines of `maxChars`; a title too long for them is cut at a word and then loses the words it would end on
 * ("for", "with", "and" …), so the caption never stops mid-phrase. A single word longer than a line is
 * the only thing ever cut inside a word.
 */
export function captionLines(title: string, maxChars = 24, maxLines = 2): string[] {
  const words = title.match(/\([^)]*\)|\S+/g) ?? [];
  const lines: string[][] = [[]];
  let cut = false;
  for (const word of words) {
    const line = lines[lines.length - 1];
    const length = line.reduce((sum, w) => sum + w.length + 1, 0) + word.length;
    if (line.length === 0 || length <= maxChars) {
      if (line.length === 0 && word.length > maxChars) {
        line.push(word.slice(0, maxChars));
        cut = true;
        break;
      }
      line.push(word);
      continue;
    }
    if (lines.length === maxLines) {
      cut = true;
      break;
    }
    if (word.length > maxChars) {
      cut = true;
      break;
    }
    // Break before "for"/"with" … rather than after it: "Quiet Nail Grinder / for Puppies".
    const carried: string[] = [];
    while (line.length > 1 && TRAILING_FUNCTION_WORDS.has(line[line.length - 1].toLowerCase())) carried.unshift(line.pop()!);
    if ([...carried, word].join(" ").length > maxChars) line.push(...carried.splice(0));
    lines.push([...carried, word]);
  }
  if (cut) {
    // Drop the words a cut would end on, across lines ("Reflective Leash for" -> "Reflective Leash").
    while (lines.length > 0) {
      const line = lines[lines.length - 1];
      while (line.length > 0 && TRAILING_FUNCTION_WORDS.has(line[line.length - 1].toLowerCase())) line.pop();
      if (line.length > 0 || lines.length === 1) break;
      lines.pop();
    }
  }
  const text = lines.map((l) => l.join(" ")).filter(Boolean);
  return text.length > 0 ? text : [title.slice(0, maxChars)];
}

/** The caption as SVG text in the picture's bottom band: one line at 26 px, two at 22 px. */
function captionSvg(lines: string[]): string {
  const attrs = `class="caption" x="200" text-anchor="middle" font-family="system-ui, -apple-system, 'Segoe UI', sans-serif" font-weight="600" fill="#1f2937"`;
  if (lines.length === 1) return `<text ${attrs} y="368" font-size="26">${escapeXml(lines[0])}</text>`;
  return `<text ${attrs} y="352" font-size="22">${lines.map((l, i) => `<tspan x="200" dy="${i === 0 ? 0 : 28}">${escapeXml(l)}</tspan>`).join("")}</text>`;
}

const D = "#1f2937"; // outlines and small details
const W = "#ffffff";

/**
 * One simple drawing per category (docs/decisions/028): recognisable shapes, no emoji, no icon font,
 * drawn around (200, 190) in a 400x400 picture whose bottom band holds the caption. `c` is the main
 * colour, `a` a light accent. A niche the table does not know (an imported catalogue's own) gets a parcel.
 */
export const CATEGORY_DRAWINGS: Record<string, { subject: string; draw: (c: string, a: string) => string }> = {
  pets: { subject: "a paw print", draw: (c) => `<ellipse cx="200" cy="225" rx="62" ry="52" fill="${c}"/><ellipse cx="128" cy="160" rx="22" ry="30" fill="${c}"/><ellipse cx="170" cy="120" rx="22" ry="30" fill="${c}"/><ellipse cx="230" cy="120" rx="22" ry="30" fill="${c}"/><ellipse cx="272" cy="160" rx="22" ry="30" fill="${c}"/>` },
  kitchen: { subject: "a cooking pot", draw: (c, a) => `<rect x="115" y="150" width="170" height="120" rx="18" fill="${c}"/><rect x="80" y="165" width="40" height="16" rx="8" fill="${c}"/><rect x="280" y="165" width="40" height="16" rx="8" fill="${c}"/><rect x="105" y="132" width="190" height="20" rx="10" fill="${a}" stroke="${c}" stroke-width="6"/><rect x="185" y="112" width="30" height="22" rx="8" fill="${c}"/>` },
  bakeware: { subject: "a cupcake", draw: (c, a) => `<path d="M130 190 H270 L250 285 H150 Z" fill="${c}"/><path d="M160 195 L168 282 M200 195 V282 M240 195 L232 282" stroke="${a}" stroke-width="6"/><path d="M120 195 C120 130 170 110 200 110 C230 110 280 130 280 195 Z" fill="${a}" stroke="${c}" stroke-width="6"/><circle cx="200" cy="102" r="14" fill="#dc2626"/>` },
  "coffee-tea": { subject: "a coffee mug", draw: (c, a) => `<rect x="125" y="140" width="130" height="140" rx="18" fill="${c}"/><path d="M255 170 C305 170 305 245 255 245" fill="none" stroke="${c}" stroke-width="18"/><rect x="140" y="152" width="100" height="14" rx="7" fill="${a}"/><path d="M160 120 C150 105 170 95 160 80 M200 120 C190 105 210 95 200 80 M240 120 C230 105 250 95 240 80" fill="none" stroke="${c}" stroke-width="6" stroke-linecap="round"/>` },
  drinkware: { subject: "a water bottle", draw: (c, a) => `<rect x="172" y="78" width="56" height="30" rx="8" fill="${D}"/><path d="M160 130 C160 112 175 106 200 106 C225 106 240 112 240 130 V280 C240 292 232 298 220 298 H180 C168 298 160 292 160 280 Z" fill="${c}"/><rect x="160" y="170" width="80" height="50" fill="${a}"/>` },
  beauty: { subject: "a lipstick", draw: (c, a) => `<rect x="160" y="205" width="80" height="90" rx="8" fill="${D}"/><rect x="168" y="160" width="64" height="50" rx="4" fill="${a}" stroke="${D}" stroke-width="4"/><path d="M176 160 V110 L224 88 V160 Z" fill="${c}"/>` },
  skincare: { subject: "a cream jar", draw: (c, a) => `<rect x="120" y="130" width="160" height="40" rx="10" fill="${c}"/><path d="M128 170 H272 V262 C272 278 262 285 248 285 H152 C138 285 128 278 128 262 Z" fill="${a}" stroke="${c}" stroke-width="6"/><path d="M200 195 C215 215 222 228 200 245 C178 228 185 215 200 195 Z" fill="${c}"/>` },
  "hair-care": { subject: "a comb", draw: (c) => `<rect x="90" y="130" width="220" height="44" rx="14" fill="${c}"/>${Array.from({ length: 13 }, (_, i) => `<rect x="${100 + i * 16}" y="168" width="9" height="${i % 2 ? 80 : 100}" rx="4" fill="${c}"/>`).join("")}` },
  fitness: { subject: "a dumbbell", draw: (c, a) => `<rect x="120" y="182" width="160" height="20" rx="8" fill="${D}"/><rect x="92" y="130" width="36" height="124" rx="10" fill="${c}"/><rect x="272" y="130" width="36" height="124" rx="10" fill="${c}"/><rect x="66" y="150" width="30" height="84" rx="10" fill="${a}" stroke="${c}" stroke-width="6"/><rect x="304" y="150" width="30" height="84" rx="10" fill="${a}" stroke="${c}" stroke-width="6"/>` },
  yoga: { subject: "a rolled yoga mat", draw: (c, a) => `<rect x="90" y="150" width="210" height="90" rx="10" fill="${c}"/><circle cx="300" cy="195" r="48" fill="${c}"/><circle cx="300" cy="195" r="30" fill="none" stroke="${a}" stroke-width="8"/><circle cx="300" cy="195" r="12" fill="${a}"/>` },
  "home-decor": { subject: "a vase with flowers", draw: (c, a) => `<path d="M200 175 C190 140 170 120 150 100 M200 175 C205 135 210 110 205 85 M200 175 C215 145 235 125 255 110" fill="none" stroke="#15803d" stroke-width="6"/><circle cx="150" cy="98" r="14" fill="${a}" stroke="${c}" stroke-width="5"/><circle cx="205" cy="82" r="14" fill="${a}" stroke="${c}" stroke-width="5"/><circle cx="257" cy="106" r="14" fill="${a}" stroke="${c}" stroke-width="5"/><path d="M175 170 H225 C225 195 255 210 255 245 C255 280 230 292 200 292 C170 292 145 280 145 245 C145 210 175 195 175 170 Z" fill="${c}"/>` },
  lighting: { subject: "a table lamp", draw: (c, a) => `<path d="M150 100 H250 L285 195 H115 Z" fill="${c}"/><rect x="192" y="195" width="16" height="70" fill="${D}"/><rect x="150" y="262" width="100" height="16" rx="8" fill="${D}"/><path d="M130 185 H270" stroke="${a}" stroke-width="6"/>` },
  "smart-home": { subject: "a house with a wifi signal", draw: (c, a) => `<path d="M100 190 L200 110 L300 190 V290 H100 Z" fill="${c}"/><rect x="180" y="230" width="40" height="60" fill="${a}"/><path d="M160 185 A55 55 0 0 1 240 185 M175 200 A30 30 0 0 1 225 200" fill="none" stroke="${a}" stroke-width="8" stroke-linecap="round"/><circle cx="200" cy="214" r="7" fill="${a}"/>` },
  "phone-accessories": { subject: "a smartphone", draw: (c, a) => `<rect x="135" y="85" width="130" height="210" rx="22" fill="${c}"/><rect x="150" y="105" width="100" height="150" rx="8" fill="${a}"/><circle cx="200" cy="275" r="8" fill="${a}"/>` },
  "tech-gadgets": { subject: "a power bank", draw: (c, a) => `<rect x="130" y="95" width="140" height="200" rx="20" fill="${c}"/><path d="M210 125 L170 200 H200 L188 265 L232 180 H202 Z" fill="${a}"/><rect x="185" y="82" width="30" height="16" rx="4" fill="${D}"/>` },
  audio: { subject: "headphones", draw: (c, a) => `<path d="M120 220 V185 A80 80 0 0 1 280 185 V220" fill="none" stroke="${c}" stroke-width="18"/><rect x="98" y="200" width="50" height="85" rx="18" fill="${c}"/><rect x="252" y="200" width="50" height="85" rx="18" fill="${c}"/><rect x="112" y="215" width="22" height="55" rx="10" fill="${a}"/><rect x="266" y="215" width="22" height="55" rx="10" fill="${a}"/>` },
  gaming: { subject: "a game controller", draw: (c, a) => `<path d="M135 150 H265 C300 150 320 190 325 240 C330 280 300 290 280 270 L255 240 H145 L120 270 C100 290 70 280 75 240 C80 190 100 150 135 150 Z" fill="${c}"/><rect x="125" y="190" width="44" height="14" rx="4" fill="${a}"/><rect x="140" y="175" width="14" height="44" rx="4" fill="${a}"/><circle cx="255" cy="182" r="10" fill="${a}"/><circle cx="278" cy="205" r="10" fill="${a}"/>` },
  office: { subject: "a laptop", draw: (c, a) => `<rect x="120" y="105" width="160" height="115" rx="10" fill="${c}"/><rect x="133" y="118" width="134" height="89" rx="4" fill="${a}"/><path d="M90 232 H310 L296 258 H104 Z" fill="${c}"/><rect x="180" y="236" width="40" height="6" rx="3" fill="${a}"/>` },
  stationery: { subject: "a notebook and pencil", draw: (c, a) => `<rect x="110" y="95" width="150" height="200" rx="10" fill="${a}" stroke="${c}" stroke-width="8"/><path d="M135 140 H235 M135 170 H235 M135 200 H235 M135 230 H200" stroke="${c}" stroke-width="6"/><g transform="rotate(30 270 190)"><rect x="255" y="90" width="30" height="170" fill="#f59e0b"/><path d="M255 260 H285 L270 295 Z" fill="#fde68a"/><rect x="255" y="80" width="30" height="14" fill="#f472b6"/></g>` },
  baby: { subject: "a baby bottle", draw: (c, a) => `<path d="M185 110 C185 80 215 80 215 110 Z" fill="#f59e0b"/><rect x="170" y="108" width="60" height="24" rx="6" fill="${c}"/><rect x="155" y="132" width="90" height="160" rx="24" fill="${a}" stroke="${c}" stroke-width="6"/><path d="M170 170 H195 M170 200 H195 M170 230 H195" stroke="${c}" stroke-width="5"/>` },
  "kids-toys": { subject: "toy blocks", draw: (c, a) => `<rect x="110" y="200" width="85" height="85" rx="8" fill="${c}"/><rect x="205" y="200" width="85" height="85" rx="8" fill="${a}" stroke="${c}" stroke-width="6"/><rect x="157" y="110" width="85" height="85" rx="8" fill="#f59e0b"/><text x="152" y="258" text-anchor="middle" font-family="sans-serif" font-size="44" font-weight="700" fill="${W}">A</text><text x="248" y="258" text-anchor="middle" font-family="sans-serif" font-size="44" font-weight="700" fill="${c}">B</text><text x="200" y="168" text-anchor="middle" font-family="sans-serif" font-size="44" font-weight="700" fill="${W}">C</text>` },
  outdoor: { subject: "a patio umbrella", draw: (c, a) => `<path d="M90 170 C110 110 290 110 310 170 Z" fill="${c}"/><path d="M90 170 C120 150 140 150 155 170 C170 150 230 150 245 170 C260 150 280 150 310 170" fill="${a}"/><rect x="195" y="118" width="10" height="170" fill="${D}"/><rect x="160" y="282" width="80" height="12" rx="6" fill="${D}"/>` },
  camping: { subject: "a tent", draw: (c, a) => `<path d="M200 95 L320 285 H80 Z" fill="${c}"/><path d="M200 160 L245 285 H155 Z" fill="${a}"/><path d="M200 95 L200 75" stroke="${D}" stroke-width="6"/><path d="M60 285 H340" stroke="${D}" stroke-width="6"/>` },
  fishing: { subject: "a fish", draw: (c, a) => `<path d="M95 190 C140 120 240 120 280 190 C240 260 140 260 95 190 Z" fill="${c}"/><path d="M275 190 L330 145 V235 Z" fill="${c}"/><circle cx="135" cy="180" r="10" fill="${W}"/><circle cx="135" cy="180" r="5" fill="${D}"/><path d="M180 160 C195 175 195 205 180 220" fill="none" stroke="${a}" stroke-width="6"/>` },
  cycling: { subject: "a bicycle", draw: (c) => `<circle cx="125" cy="230" r="52" fill="none" stroke="${D}" stroke-width="10"/><circle cx="275" cy="230" r="52" fill="none" stroke="${D}" stroke-width="10"/><path d="M125 230 L175 160 H255 L275 230 M175 160 L205 230 H125 M205 230 L255 160 M165 140 H195 M255 160 L245 130 H270" fill="none" stroke="${c}" stroke-width="10" stroke-linejoin="round" stroke-linecap="round"/>` },
  "car-accessories": { subject: "a car", draw: (c, a) => `<path d="M80 240 V205 C80 195 88 190 98 188 L140 182 L170 140 C176 132 184 130 194 130 H255 C265 130 272 134 278 142 L305 182 C318 186 322 195 322 205 V240 Z" fill="${c}"/><path d="M180 148 H225 V182 H155 Z M238 148 H258 L285 182 H238 Z" fill="${a}"/><circle cx="135" cy="245" r="28" fill="${D}"/><circle cx="270" cy="245" r="28" fill="${D}"/><circle cx="135" cy="245" r="10" fill="${a}"/><circle cx="270" cy="245" r="10" fill="${a}"/>` },
  travel: { subject: "a suitcase", draw: (c, a) => `<path d="M175 125 V100 H225 V125" fill="none" stroke="${D}" stroke-width="10"/><rect x="120" y="122" width="160" height="160" rx="18" fill="${c}"/><path d="M160 122 V282 M240 122 V282" stroke="${a}" stroke-width="10"/><circle cx="145" cy="292" r="9" fill="${D}"/><circle cx="255" cy="292" r="9" fill="${D}"/>` },
  bags: { subject: "a handbag", draw: (c, a) => `<path d="M160 160 C160 100 240 100 240 160" fill="none" stroke="${c}" stroke-width="14"/><path d="M120 160 H280 L300 285 H100 Z" fill="${c}"/><path d="M120 160 H280 L284 185 H116 Z" fill="${a}"/><rect x="188" y="178" width="24" height="20" rx="4" fill="#f59e0b"/>` },
  jewelry: { subject: "a diamond ring", draw: (c, a) => `<circle cx="200" cy="225" r="62" fill="none" stroke="#d4a017" stroke-width="16"/><path d="M165 130 H235 L255 150 L200 200 L145 150 Z" fill="${a}" stroke="${c}" stroke-width="6" stroke-linejoin="round"/><path d="M145 150 H255 M180 130 L200 200 L220 130" stroke="${c}" stroke-width="4" fill="none"/>` },
  watches: { subject: "a wristwatch", draw: (c, a) => `<rect x="170" y="80" width="60" height="230" rx="14" fill="${c}"/><circle cx="200" cy="195" r="62" fill="${D}"/><circle cx="200" cy="195" r="50" fill="${a}"/><path d="M200 195 V160 M200 195 L225 210" stroke="${D}" stroke-width="6" stroke-linecap="round"/>` },
  "fashion-accessories": { subject: "sunglasses", draw: (c, a) => `<path d="M70 170 H330" stroke="${D}" stroke-width="10"/><path d="M85 170 H185 C185 225 165 245 135 245 C105 245 85 225 85 170 Z" fill="${c}"/><path d="M215 170 H315 C315 225 295 245 265 245 C235 245 215 225 215 170 Z" fill="${c}"/><path d="M105 185 L130 185" stroke="${a}" stroke-width="8" stroke-linecap="round"/><path d="M235 185 L260 185" stroke="${a}" stroke-width="8" stroke-linecap="round"/>` },
  shoes: { subject: "a sneaker", draw: (c, a) => `<path d="M80 250 V200 C80 185 90 178 105 178 H150 L175 215 C200 225 250 225 285 232 C310 237 322 248 322 262 V270 H80 Z" fill="${c}"/><rect x="80" y="262" width="242" height="20" rx="8" fill="${a}" stroke="${c}" stroke-width="4"/><path d="M150 195 L170 190 M160 208 L182 203" stroke="${a}" stroke-width="6" stroke-linecap="round"/>` },
  health: { subject: "a heart with a pulse line", draw: (c, a) => `<path d="M200 285 C110 225 85 180 100 145 C115 110 170 105 200 150 C230 105 285 110 300 145 C315 180 290 225 200 285 Z" fill="${c}"/><path d="M110 195 H160 L178 160 L200 230 L218 185 H290" fill="none" stroke="${a}" stroke-width="9" stroke-linejoin="round" stroke-linecap="round"/>` },
  sleep: { subject: "a moon and stars", draw: (c, a) => `<path d="M230 95 A100 100 0 1 0 300 240 A80 80 0 1 1 230 95 Z" fill="${c}"/><path d="M290 105 L297 122 L315 124 L301 135 L306 153 L290 143 L274 153 L279 135 L265 124 L283 122 Z" fill="${a}" stroke="${c}" stroke-width="3"/><circle cx="120" cy="110" r="8" fill="${c}"/>` },
  massage: { subject: "a massage gun", draw: (c, a) => `<rect x="110" y="115" width="170" height="70" rx="30" fill="${c}"/><circle cx="105" cy="150" r="28" fill="${a}" stroke="${c}" stroke-width="6"/><rect x="205" y="180" width="50" height="110" rx="14" fill="${c}"/><rect x="218" y="200" width="24" height="40" rx="8" fill="${a}"/>` },
  bathroom: { subject: "a shower head", draw: (c, a) => `<path d="M120 90 H200 V130" fill="none" stroke="${D}" stroke-width="14" stroke-linejoin="round"/><path d="M140 170 C140 120 260 120 260 170 Z" fill="${c}"/>${[160, 185, 210, 235].map((x, i) => `<path d="M${x} ${190 + (i % 2) * 10} v22 M${x - 6} ${240 + (i % 2) * 12} v22" stroke="${c}" stroke-width="6" stroke-linecap="round"/>`).join("")}<rect x="135" y="168" width="130" height="10" rx="5" fill="${a}"/>` },
  cleaning: { subject: "a spray bottle", draw: (c, a) => `<path d="M165 95 H235 L250 120 H180 L150 140 Z" fill="${D}"/><rect x="185" y="120" width="40" height="35" fill="${c}"/><path d="M160 155 H250 L262 285 H148 Z" fill="${c}"/><rect x="170" y="195" width="70" height="50" rx="6" fill="${a}"/><path d="M120 110 h14 M116 130 h18 M120 150 h14" stroke="${c}" stroke-width="5" stroke-linecap="round"/>` },
  "storage-organization": { subject: "storage boxes", draw: (c, a) => `<rect x="105" y="200" width="190" height="85" rx="8" fill="${c}"/><rect x="125" y="110" width="150" height="85" rx="8" fill="${c}"/><rect x="175" y="225" width="50" height="22" rx="4" fill="${a}"/><rect x="175" y="135" width="50" height="22" rx="4" fill="${a}"/>` },
  gardening: { subject: "a potted plant", draw: (c, a) => `<path d="M200 200 C160 190 130 160 125 115 C170 120 195 150 200 200 Z M200 200 C240 190 270 160 275 115 C230 120 205 150 200 200 Z M200 200 C185 160 190 120 200 95 C210 120 215 160 200 200 Z" fill="#16a34a"/><path d="M140 200 H260 L245 290 H155 Z" fill="${c}"/><rect x="132" y="196" width="136" height="22" rx="6" fill="${a}" stroke="${c}" stroke-width="5"/>` },
  "tools-diy": { subject: "a hammer", draw: (c, a) => `<g transform="rotate(-35 200 190)"><rect x="188" y="130" width="24" height="175" rx="8" fill="#b45309"/><path d="M135 95 H255 C268 95 275 105 275 115 V135 H135 Z" fill="${c}"/><path d="M135 95 L110 105 V125 L135 135 Z" fill="${c}"/><rect x="188" y="255" width="24" height="50" rx="8" fill="${a}"/></g>` },
  "party-supplies": { subject: "balloons", draw: (c, a) => `<path d="M150 200 C150 240 195 260 200 300 M250 190 C250 240 205 260 200 300 M200 170 V300" fill="none" stroke="${D}" stroke-width="3"/><ellipse cx="150" cy="150" rx="42" ry="52" fill="${c}"/><ellipse cx="250" cy="140" rx="42" ry="52" fill="#f59e0b"/><ellipse cx="200" cy="115" rx="42" ry="52" fill="${a}" stroke="${c}" stroke-width="5"/>` },
  crafts: { subject: "a ball of yarn", draw: (c, a) => `<circle cx="190" cy="200" r="80" fill="${c}"/><path d="M125 160 C170 175 215 215 240 268 M115 200 C160 205 205 240 220 280 M150 130 C200 150 250 200 268 240 M200 120 C240 150 265 175 270 200" fill="none" stroke="${a}" stroke-width="6"/><path d="M250 100 L320 300 M290 95 L300 300" stroke="${D}" stroke-width="8" stroke-linecap="round"/><path d="M270 200 C300 250 330 260 350 290" fill="none" stroke="${c}" stroke-width="5"/>` },
};

const PARCEL = {
  subject: "a parcel",
  draw: (c: string, a: string) =>
    `<path d="M200 95 L290 140 L290 240 L200 285 L110 240 L110 140 Z" fill="${c}"/><path d="M110 140 L200 185 L290 140 M200 185 L200 285" stroke="${a}" stroke-width="10" fill="none"/>`,
};

/** What the picture of a product of this niche shows: "a handbag" for bags, "a table lamp" for lighting, ... */
export function drawingSubject(niche: string): string {
  return (CATEGORY_DRAWINGS[niche] ?? PARCEL).subject;
}

export function renderProductSvg(input: { objectID: string; n: number; title: string; niche: string }): string {
  const random = sequence(hash32(`${input.objectID}:${input.n}`));
  const nicheHash = hash32(input.niche);
  const hue = Math.floor(random() * 360);
  const nicheHue = nicheHash % 360;
  const background = `<linearGradient id="bg" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="hsl(${hue},60%,92%)"/><stop offset="1" stop-color="hsl(${(hue + 40) % 360},55%,80%)"/></linearGradient>`;
  const shapes: string[] = [];
  for (let i = 0; i < 5; i++) {
    const x = Math.round(random() * 400);
    const y = Math.round(random() * 300);
    const size = Math.round(20 + random() * 70);
    const fill = `hsl(${(hue + Math.floor(random() * 120)) % 360},50%,70%)`;
    shapes.push(
      random() < 0.5
        ? `<circle cx="${x}" cy="${y}" r="${size}" fill="${fill}" opacity="0.35"/>`
        : `<rect x="${x - size}" y="${y - size}" width="${size * 2}" height="${size * 2}" rx="${Math.round(size / 3)}" fill="${fill}" opacity="0.3" transform="rotate(${Math.round(random() * 90)} ${x} ${y})"/>`,
    );
  }
  const tilt = Math.round((random() - 0.5) * 16);
  const scale = (0.85 + random() * 0.25).toFixed(2);
  const lines = captionLines(input.title);
  const caption = escapeXml(lines.join(" "));
  const drawing = CATEGORY_DRAWINGS[input.niche] ?? PARCEL;
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 400 400" width="400" height="400" role="img" aria-label="${caption}: drawing of ${escapeXml(drawing.subject)}">` +
    `<defs>${background}</defs><rect width="400" height="400" fill="url(#bg)"/>${shapes.join("")}` +
    `<g class="drawing" data-subject="${escapeXml(drawing.subject)}" transform="translate(200 190) rotate(${tilt}) scale(${scale}) translate(-200 -190)">` +
    drawing.draw(`hsl(${nicheHue},45%,42%)`, `hsl(${(nicheHue + 30) % 360},55%,85%)`) +
    `</g><rect x="0" y="318" width="400" height="82" fill="#ffffff" opacity="0.82"/>` +
    captionSvg(lines) +
    `</svg>`
  );
}

export interface ProductImage {
  svg: string;
  etag: string;
}

/** The picture for "{objectID}-{n}.svg", or null when the name is malformed or no such product exists. */
export async function getProductImage(db: Db, file: string): Promise<ProductImage | null> {
  const parsed = parseProductImageFile(file);
  if (!parsed) return null;
  const product = await db.product.findUnique({
    where: { objectID: parsed.objectID },
    select: { title: true, primaryNiche: true },
  });
  if (!product) return null;
  const svg = renderProductSvg({ ...parsed, title: product.title, niche: product.primaryNiche });
  return { svg, etag: `"${hash32(svg).toString(36)}-${svg.length.toString(36)}"` };
}
