// The product lines behind the labelled set of real-catalogue patterns (docs/decisions/087). Every title, option
// and label here is ours: written after reading what public Shopify catalogues hold (a baby-textile store's prints
// and layer counts, a produce store's juices and weights, an outdoor store's panel caps and sizes, keyboard stores'
// layouts, parts and keycap themes, a French store's scents and packs), never copied from them.
//
// A line is what one supplier sells in several versions. Stores list each version as its own product, often under
// the line's one packshot. The set takes each version ("item") as listed by two or three stores (true pairs) and
// versions of one line against each other (hard negatives).

export interface OptionSpec {
  name: string;
  values: string[];
}

export interface ItemSpec {
  /** How the item is told apart within its line, in the ways stores write it ("8 Layer", "8-Layer", "8 Layers"). */
  forms: string[];
  /** The item's own option values (an item sold in one size only, a layout), replacing the line's option. */
  option?: OptionSpec;
}

export interface LineSpec {
  id: string;
  /** The line's words as its supplier writes them. */
  line: string;
  /** What sets its items apart: a number, a noun, an option, a model, an open name, a part, nothing but a barcode. */
  by: "number" | "noun" | "option" | "model" | "name" | "part" | "barcode" | "single";
  items: ItemSpec[];
  /** "shared": one packshot for every item (stores reuse the line's photo); "own": each item its own picture in the line's style. */
  picture: "shared" | "own";
  /** Words a store may add (or another leave out). */
  descriptors: string[];
  priceCents: number;
  /** A brand: every store names it as the vendor and uses its SKUs. Otherwise each store is its own vendor. */
  brand?: string;
  /** The line's option, for every item without its own. */
  option?: OptionSpec;
  /** Items carry GTINs (stores publish them on some listings). */
  gtin?: boolean;
  /** How many stores list each item (2 unless said). */
  stores?: number;
}

const months = (values: string[]): OptionSpec => ({ name: "Size", values });

export const LINES: LineSpec[] = [
  // ---- a number, with or without a unit ----
  { id: "muslin-layer", line: "Muslin Baby Blanket", by: "number", picture: "shared", priceCents: 2400, descriptors: ["Breathable", "Newborn", "Soft Cotton"],
    items: [{ forms: ["4 Layer", "4-Layer", "4 Layers"] }, { forms: ["6 Layer", "6-Layer", "6 Layers"] }, { forms: ["8 Layer", "8-Layer", "8 Layers"] }] },
  { id: "camp-cap", line: "Camp Cap", by: "number", picture: "shared", priceCents: 2800, descriptors: ["Organic Cotton", "Adjustable", "Outdoor"],
    option: { name: "Color", values: ["Moss", "Rust", "Slate"] },
    items: [{ forms: ["5 Panel", "5-Panel"] }, { forms: ["6 Panel", "6-Panel"] }] },
  { id: "bib-set", line: "Silicone Baby Bib", by: "number", picture: "shared", priceCents: 1500, descriptors: ["Waterproof", "Easy Clean", "With Pocket"], gtin: true,
    items: [{ forms: ["Set of 2", "2 Piece Set", "Pack of 2"] }, { forms: ["Set of 4", "4 Piece Set", "Pack of 4"] }, { forms: ["Set of 6", "6 Piece Set", "Pack of 6"] }] },
  { id: "wax-wrap", line: "Beeswax Food Wrap", by: "number", picture: "shared", priceCents: 1800, descriptors: ["Reusable", "Zero Waste", "Plastic Free"],
    items: [{ forms: ["Pack of 3", "3 Pack", "Set of 3"] }, { forms: ["Pack of 5", "5 Pack", "Set of 5"] }] },
  { id: "toothbrush", line: "Kids Bamboo Toothbrush", by: "number", picture: "shared", priceCents: 900, descriptors: ["Soft Bristles", "Eco Friendly", "Biodegradable"],
    items: [{ forms: ["2 Pack", "Pack of 2", "x2"] }, { forms: ["4 Pack", "Pack of 4", "x4"] }, { forms: ["10 Pack", "Pack of 10", "x10"] }] },
  { id: "wall-shelf", line: "Floating Wall Shelf", by: "number", picture: "shared", priceCents: 3900, descriptors: ["Rustic Wood", "Bathroom", "Easy Mount"],
    items: [{ forms: ["2 Tier", "2-Tier"] }, { forms: ["3 Tier", "3-Tier"] }, { forms: ["4 Tier", "4-Tier"] }] },
  { id: "power-strip", line: "Surge Protector Power Strip", by: "number", picture: "shared", priceCents: 2600, descriptors: ["Flat Plug", "USB Ports", "Wall Mount"], gtin: true,
    items: [{ forms: ["4 Outlet", "4 Outlets", "4-Outlet"] }, { forms: ["6 Outlet", "6 Outlets", "6-Outlet"] }, { forms: ["12 Outlet", "12 Outlets", "12-Outlet"] }] },
  { id: "seed-tray", line: "Seed Starter Tray", by: "number", picture: "shared", priceCents: 1400, descriptors: ["With Humidity Dome", "Reusable", "Indoor Garden"],
    items: [{ forms: ["12 Cell", "12 Cells", "12-Cell"] }, { forms: ["24 Cell", "24 Cells", "24-Cell"] }, { forms: ["72 Cell", "72 Cells", "72-Cell"] }] },
  { id: "charging-stand", line: "Wireless Charging Stand", by: "number", picture: "shared", priceCents: 3500, descriptors: ["Fast Charge", "Foldable", "For Phone Watch Earbuds"],
    items: [{ forms: ["2 in 1", "2-in-1"] }, { forms: ["3 in 1", "3-in-1"] }] },
  { id: "desk-mat", line: "Felt Desk Mat", by: "number", picture: "own", priceCents: 2200, descriptors: ["Non Slip", "Large", "Office"], brand: "Deskworks",
    items: [{ forms: ["Version 2", "Version 2"] }, { forms: ["Version 3", "Version 3"] }] },
  { id: "smart-watch", line: "Fitness Smart Watch", by: "number", picture: "own", priceCents: 8900, descriptors: ["Heart Rate", "Waterproof", "Sleep Tracker"], brand: "Pulsewear", gtin: true,
    items: [{ forms: ["Series 5", "Series 5"] }, { forms: ["Series 6", "Series 6"] }] },
  { id: "salad-bag", line: "Organic Mixed Salad Leaves", by: "number", picture: "shared", priceCents: 450, descriptors: ["Fresh", "Washed", "Local Farm"],
    items: [{ forms: ["250g", "250 g", "0.25kg"] }, { forms: ["500g", "500 g", "0.5kg"] }] },

  // ---- a distinguishing noun (prints, flavours, animals, scents, motifs) ----
  { id: "swaddle-print", line: "Muslin Swaddle Blanket", by: "noun", picture: "shared", priceCents: 2000, descriptors: ["Breathable", "Newborn Gift", "Extra Large"],
    items: [{ forms: ["Dinosaur"] }, { forms: ["Butterfly"] }, { forms: ["Elephant"] }, { forms: ["Rainbow"] }] },
  { id: "juice", line: "Organic Cold Pressed Juice", by: "noun", picture: "shared", priceCents: 600, descriptors: ["No Added Sugar", "Fresh", "Raw"],
    items: [{ forms: ["Beetroot"] }, { forms: ["Carrot"] }, { forms: ["Apple"] }, { forms: ["Beetroot, Apple and Ginger", "Beetroot Apple Ginger"] }] },
  { id: "teether", line: "Silicone Teether Rattle", by: "noun", picture: "shared", priceCents: 1100, descriptors: ["BPA Free", "Soothing", "For Babies"],
    items: [{ forms: ["Elephant"] }, { forms: ["Giraffe"] }, { forms: ["Kitty", "Cat"] }, { forms: ["Bunny", "Rabbit"] }] },
  { id: "baby-nest", line: "Baby Nest Lounger", by: "noun", picture: "shared", priceCents: 5400, descriptors: ["Portable", "Cotton", "Co Sleeping"],
    items: [{ forms: ["Deer"] }, { forms: ["Robot"] }, { forms: ["Clouds", "Cloud"] }, { forms: ["Stars", "Star"] }] },
  { id: "candle", line: "Scented Soy Candle", by: "noun", picture: "shared", priceCents: 2400, descriptors: ["Hand Poured", "40 Hour Burn", "Natural Wax"],
    items: [{ forms: ["Lavender"] }, { forms: ["Vanilla"] }, { forms: ["Sandalwood"] }] },
  { id: "bougie", line: "Bougie Parfumée 70g", by: "noun", picture: "shared", priceCents: 1900, descriptors: ["Cire Végétale", "Fait Main", "Mèche Coton"],
    items: [{ forms: ["Figue"] }, { forms: ["Ambre"] }, { forms: ["Fleur d'oranger"] }] },
  { id: "enamel-pin", line: "Enamel Pin", by: "noun", picture: "own", priceCents: 800, descriptors: ["Hard Enamel", "Gold Plated", "Backpack"],
    items: [{ forms: ["Mushroom"] }, { forms: ["Crescent Moon", "Moon"] }, { forms: ["Cactus"] }] },
  { id: "rain-boots", line: "Kids Rain Boots", by: "noun", picture: "own", priceCents: 3200, descriptors: ["Non Slip", "Waterproof", "Toddler"],
    option: { name: "Size", values: ["UK 5", "UK 6", "UK 7", "UK 8"] },
    items: [{ forms: ["Shark"] }, { forms: ["Unicorn"] }, { forms: ["Tractor"] }] },
  { id: "tea", line: "Loose Leaf Herbal Tea 100g", by: "noun", picture: "shared", priceCents: 1200, descriptors: ["Caffeine Free", "Organic", "Resealable Pouch"],
    items: [{ forms: ["Chamomile"] }, { forms: ["Peppermint"] }, { forms: ["Hibiscus"] }] },
  { id: "phone-grip", line: "Phone Grip Stand", by: "noun", picture: "own", priceCents: 1000, descriptors: ["Collapsible", "Finger Holder", "Cute"],
    items: [{ forms: ["Daisy"] }, { forms: ["Checkerboard", "Checker"] }, { forms: ["Marble"] }] },
  { id: "nappy-set", line: "Muslin Bib and Nappy Set", by: "noun", picture: "shared", priceCents: 1600, descriptors: ["Matching", "Soft", "Gift Set"],
    items: [{ forms: ["Pink Heart", "Heart"] }, { forms: ["Red Flower", "Flower"] }, { forms: ["Blue Leaf", "Leaf"] }] },

  // ---- an open name, a part of a kit, a model ----
  { id: "keycaps", line: "Cherry Profile PBT Keycap Set", by: "name", picture: "own", priceCents: 4000, descriptors: ["Dye Sub", "Full Set", "ANSI ISO"], brand: "Keyforge",
    items: [{ forms: ["Night Harbor"] }, { forms: ["Paper Lantern"] }, { forms: ["Sea Glass"] }] },
  { id: "snowboard", line: "Collection Snowboard", by: "name", picture: "own", priceCents: 62900, descriptors: ["All Mountain", "Freestyle", "Camber"], brand: "Ridgeline",
    items: [{ forms: ["Helium"] }, { forms: ["Argon"] }, { forms: ["Neon"] }] },
  { id: "keyboard-kit", line: "Aluminium 65% Keyboard Kit No. 2", by: "part", picture: "shared", priceCents: 9000, descriptors: ["Custom", "Anodized", "Gasket Mount"], brand: "Tessellate",
    items: [{ forms: ["Plate"] }, { forms: ["Bottom Case"] }, { forms: ["Brass Weight", "Weight"] }, { forms: ["PCB"] }] },
  { id: "wireless-keyboard", line: "Wireless Mechanical Keyboard", by: "model", picture: "own", priceCents: 9900, descriptors: ["Hot Swap", "Bluetooth", "RGB Backlight"], brand: "Quillkey", gtin: true,
    items: [{ forms: ["K3"] }, { forms: ["K5"] }, { forms: ["K8"] }] },
  { id: "robot-vacuum", line: "Robot Vacuum Cleaner", by: "model", picture: "own", priceCents: 19900, descriptors: ["Self Charging", "App Control", "Pet Hair"], brand: "Dustwise", gtin: true,
    items: [{ forms: ["R20"] }, { forms: ["R30"] }] },

  // ---- an option the other listing's options do not have ----
  { id: "knot-bib", line: "Muslin Knot Bib", by: "option", picture: "shared", priceCents: 900, descriptors: ["Soft", "Adjustable", "Drool"],
    items: [{ forms: [""], option: months(["0-3 months"]) }, { forms: [""], option: months(["6-12 months", "12-24 months"]) }] },
  { id: "keyboard-layout", line: "Low Profile Wireless Keyboard", by: "option", picture: "shared", priceCents: 7900, descriptors: ["Slim", "Multi Device", "Backlit"], brand: "Quillkey",
    items: [{ forms: [""], option: { name: "Layout", values: ["ANSI US"] } }, { forms: [""], option: { name: "Layout", values: ["ISO UK", "ISO DE", "ISO FR"] } }] },
  { id: "maternity", line: "Disposable Maternity Briefs", by: "option", picture: "shared", priceCents: 1300, descriptors: ["Postpartum", "Heavy Flow", "Breathable"],
    items: [{ forms: [""], option: { name: "Size", values: ["M (Pack of 2)", "L (Pack of 2)"] } }, { forms: [""], option: { name: "Size", values: ["XL (Pack of 5)", "XXL (Pack of 5)"] } }] },
  { id: "beanie", line: "Merino Wool Beanie", by: "option", picture: "shared", priceCents: 2900, descriptors: ["Warm", "Ribbed", "Winter"],
    items: [{ forms: [""], option: { name: "Size", values: ["Kids 2-6", "Kids 7-12"] } }, { forms: [""], option: { name: "Size", values: ["Adult"] } }] },

  // ---- told apart by barcodes only ----
  { id: "bottle", line: "Insulated Water Bottle 750ml", by: "barcode", picture: "shared", priceCents: 2500, descriptors: ["Stainless Steel", "Leak Proof", "Keeps Cold 24h"], gtin: true, stores: 3,
    items: [{ forms: [""] }, { forms: [""] }] },
  { id: "earbuds-case", line: "Silicone Earbuds Case", by: "barcode", picture: "shared", priceCents: 900, descriptors: ["Shockproof", "With Keychain", "Slim"], gtin: true, stores: 3,
    items: [{ forms: [""] }, { forms: [""] }] },

  // ---- one product, no siblings: true pairs only ----
  { id: "neck-fan", line: "Bladeless Neck Fan", by: "single", picture: "own", priceCents: 2500, descriptors: ["Portable", "USB Rechargeable", "Hands Free"], stores: 3, items: [{ forms: [""] }] },
  { id: "posture", line: "Posture Corrector Brace", by: "single", picture: "own", priceCents: 1900, descriptors: ["Adjustable", "For Men and Women", "Breathable"], stores: 3,
    option: { name: "Size", values: ["S", "M", "L", "XL"] }, items: [{ forms: [""] }] },
  { id: "led-strip", line: "LED Strip Lights 5m", by: "single", picture: "own", priceCents: 2100, descriptors: ["App Control", "Music Sync", "For Bedroom"], stores: 3, items: [{ forms: [""] }] },
  { id: "car-mount", line: "Magnetic Car Phone Mount", by: "single", picture: "own", priceCents: 1600, descriptors: ["Dashboard", "360 Rotation", "Strong Magnet"], stores: 3, items: [{ forms: [""] }] },
  { id: "pet-brush", line: "Self Cleaning Pet Grooming Brush", by: "single", picture: "own", priceCents: 1400, descriptors: ["For Dogs and Cats", "Deshedding", "Gentle"], stores: 3, items: [{ forms: [""] }] },
  { id: "stool", line: "Folding Camp Stool", by: "single", picture: "own", priceCents: 3400, descriptors: ["Lightweight", "Canvas Seat", "With Carry Strap"], stores: 3, items: [{ forms: [""] }] },
  { id: "headlamp", line: "Rechargeable LED Headlamp", by: "single", picture: "own", priceCents: 2700, descriptors: ["Waterproof", "Running", "Camping"], stores: 3,
    option: { name: "Color", values: ["Olive", "Black", "Orange"] }, items: [{ forms: [""] }] },
  { id: "sleep-mask", line: "睡眠アイマスク シルク", by: "single", picture: "own", priceCents: 1800, descriptors: ["遮光", "旅行", "ギフト"], stores: 3, items: [{ forms: [""] }] },
  { id: "lunch-bag", line: "Canvas Lunch Bag", by: "single", picture: "own", priceCents: 3000, descriptors: ["Insulated", "Waxed", "Work"], stores: 3,
    option: { name: "Colour", values: ["Khaki", "Moss", "Nutmeg"] }, items: [{ forms: [""] }] },
  { id: "garlic-press", line: "Stainless Steel Garlic Press", by: "single", picture: "own", priceCents: 1300, descriptors: ["Dishwasher Safe", "Heavy Duty", "Kitchen"], stores: 3, gtin: true, items: [{ forms: [""] }] },
];
