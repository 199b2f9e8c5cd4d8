// Spelling corrections for the product search, drawn from the catalogue's own words.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { correctQuery, editDistance, maxEdits, TRANSPOSITION_COST, Vocabulary, VocabularyBuilder } from "~/domain/products/spelling";

// Counts matter: the most frequent of equally near words wins.
const catalogue = [
  ...Array(30).fill("Waterproof Bluetooth Speaker"),
  ...Array(12).fill("Wireless Earbuds with Charging Case"),
  ...Array(5).fill("Bluetooth Tracker Key Finder"),
  ...Array(8).fill("Sneaker Cleaning Kit"),
  "Speaker Stand", // speaker: 31
  "LED Lamp 3000mAh for iPhone 15",
  "Café Crème Mug", // accents folded: cafe, creme
  '["home-decor","audio"]',
  ...Array(9).fill("Ceramic Mug"),
  "Ceramic Bug Hotel",
].join("\n");
const vocabulary = Vocabulary.fromText(catalogue);

describe("correctQuery", () => {
  it.each([
    ["bluetoth speker", "bluetooth speaker"], // a missing letter in each word
    ["blutooth", "bluetooth"],
    ["bleutooth", "bluetooth"], // two neighbours swapped: one edit
    ["speakr", "speaker"],
    ["waterprof speaker", "waterproof speaker"],
    ["earbds", "earbuds"],
    ["wirelss earbuds", "wireless earbuds"],
    ["Bluetoth Speaker", "bluetooth Speaker"], // only the corrected word changes; the rest keeps its case
    ["bluetoth, speker!", "bluetooth, speaker!"], // punctuation stays where it was
    ["chargng case", "charging case"],
    ["cafe cremme", "cafe creme"],
    ["decro", "decor"], // niches are part of the vocabulary
    ["traker", "tracker"],
    ["bluetoooth   speker", "bluetooth   speaker"],
  ])("%s -> %s", (typed, expected) => {
    expect(correctQuery(typed, vocabulary)).toBe(expected);
  });

  it("prefers the nearest word, then the most frequent one", () => {
    // "speeker" is 1 edit from speaker (31) and 2 from sneaker (8).
    expect(correctQuery("speeker", vocabulary)).toBe("speaker");
    // "mig" could be mug (10) or... only mug is within 1 edit; "bug" is 2 edits from "mig".
    expect(correctQuery("mig", vocabulary)).toBe("mug");
    // "sbeaker": 1 edit from speaker (31) and from sneaker (8): the more frequent wins.
    expect(correctQuery("sbeaker", vocabulary)).toBe("speaker");
    // "hug": 1 edit from mug (10) and bug (1).
    expect(correctQuery("hug", vocabulary)).toBe("mug");
  });

  it("never changes a word of the vocabulary", () => {
    expect(correctQuery("sneaker", vocabulary)).toBeNull(); // 1 edit from the more frequent "speaker"
    expect(correctQuery("bluetooth speaker", vocabulary)).toBeNull();
    expect(correctQuery("SPEAKER", vocabulary)).toBeNull();
    expect(correctQuery("crème", vocabulary)).toBeNull();
    expect(correctQuery("bug mug", vocabulary)).toBeNull();
  });

  it("reads the last word as a prefix, like the search does", () => {
    expect(correctQuery("bluetooth spe", vocabulary)).toBeNull();
    expect(correctQuery("bluetoth spea", vocabulary)).toBe("bluetooth spea");
    // Not last: a prefix is not a word.
    expect(correctQuery("waterpro speaker", vocabulary)).toBe("waterproof speaker");
  });

  it("leaves short words and words with digits alone", () => {
    expect(correctQuery("ke", vocabulary)).toBeNull(); // 1 edit from "key", but too short to guess
    expect(correctQuery("bluetoth 3000mah", vocabulary)).toBe("bluetooth 3000mah");
    expect(correctQuery("iphone 16", vocabulary)).toBeNull();
    expect(correctQuery("1phone", vocabulary)).toBeNull();
    expect(correctQuery("2024", vocabulary)).toBeNull();
  });

  it("allows 1 edit up to 5 letters and 2 from 6", () => {
    expect(correctQuery("mgx", vocabulary)).toBeNull(); // 2 edits from mug: too far for 3 letters
    expect(correctQuery("tacker", vocabulary)).toBe("tracker"); // 1 edit
    expect(correctQuery("trakcre", vocabulary)).toBe("tracker"); // 2 edits (two swaps), 7 letters
    expect(correctQuery("spaekr", vocabulary)).toBe("speaker"); // a swap + a deletion, 6 letters
    expect(correctQuery("stnad", vocabulary)).toBe("stand"); // a swap, 5 letters
    expect(correctQuery("xstnadq", vocabulary)).toBeNull(); // 3 edits
  });

  it("corrects only the words the search reads (the first 12)", () => {
    const thirteen = `${"speaker ".repeat(12)}bluetoth`;
    expect(correctQuery(thirteen, vocabulary)).toBeNull();
    expect(correctQuery(`${"speaker ".repeat(11)}bluetoth`, vocabulary)).toBe(`${"speaker ".repeat(11)}bluetooth`);
  });

  it("never changes a real English word into another catalogue word (issue 35)", () => {
    // The catalogue sells hair dryers, gold rings and galaxy projectors; "air fryer" and a seller's sentence are English.
    const shop = Vocabulary.fromText("Hair Dryer Brush\nGold-Plated Ring\nGalaxy Projector\nPet Bed\nDog Collar\nOrganizer");
    const english = new Set(["air", "fryer", "cheap", "products", "under", "with", "good", "margin", "organiser"]);
    const isEnglish = (word: string) => english.has(word);
    expect(correctQuery("air fryer", shop)).toBe("hair dryer"); // what it did before
    expect(correctQuery("air fryer", shop, isEnglish)).toBeNull();
    expect(correctQuery("cheap pet products under $20 with good margin", shop, isEnglish)).toBeNull();
    expect(correctQuery("Air Fryer", shop, isEnglish)).toBeNull(); // folded before it is looked up
    // A misspelt word beside English ones is still corrected; an English spelling of a catalogue word is left alone.
    expect(correctQuery("cheap orgaizer", shop, isEnglish)).toBe("cheap organizer");
    expect(correctQuery("organiser", shop, isEnglish)).toBeNull();
  });

  it("returns null when nothing is near", () => {
    expect(correctQuery("xyzzyplughq", vocabulary)).toBeNull();
    expect(correctQuery("", vocabulary)).toBeNull();
    expect(correctQuery("  !! ", vocabulary)).toBeNull();
    expect(correctQuery("bluetoth", new Vocabulary(new Map()))).toBeNull();
  });
});

describe("the vocabulary", () => {
  it("counts every occurrence of the words of titles and niches, folded like the full-text index", () => {
    expect(vocabulary.countOf("speaker")).toBe(31);
    expect(vocabulary.countOf("bluetooth")).toBe(35);
    expect(vocabulary.countOf("cafe")).toBe(1);
    expect(vocabulary.countOf("decor")).toBe(1);
    expect(vocabulary.has("café")).toBe(false);
    // Words the correction never suggests are not kept.
    expect(vocabulary.has("3000mah")).toBe(false);
    expect(vocabulary.has("15")).toBe(false);
    expect(vocabulary.has("kit")).toBe(true);
    expect(vocabulary.has("ke")).toBe(false);
  });

  it("is the same however the text is cut into pieces", () => {
    const builder = new VocabularyBuilder();
    for (const line of catalogue.split("\n")) builder.addText(line);
    const pieces = builder.build();
    expect(pieces.words).toEqual(vocabulary.words);
    expect([...pieces.counts]).toEqual([...vocabulary.counts]);
  });
});

describe("maxEdits", () => {
  it.each([
    ["ab", 0],
    ["abc", 1],
    ["abcde", 1],
    ["abcdef", 2],
    ["a1bcdef", 0],
    ["x".repeat(31), 0],
  ])("%s -> %i", (word, edits) => expect(maxEdits(word)).toBe(edits));
});

describe("editDistance", () => {
  const reference = (a: string, b: string, swap = 1): number => {
    const d = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
    for (let i = 1; i <= a.length; i++) {
      for (let j = 1; j <= b.length; j++) {
        d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
        if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + swap);
      }
    }
    return d[a.length][b.length];
  };

  it("matches the textbook optimal string alignment distance, capped at max + 1", () => {
    const word = fc.string({ unit: fc.constantFrom("a", "b", "c", "d"), maxLength: 8 });
    fc.assert(
      fc.property(word, word, fc.integer({ min: 0, max: 3 }), (a, b, max) => {
        expect(editDistance(a, b, max)).toBe(Math.min(reference(a, b), max + 1));
      }),
      { numRuns: 2000 },
    );
  });

  it("counts two cheap swaps within one edit even when a row in between is past it (ebbe -> beeb)", () => {
    expect(editDistance("ebbe", "beeb", 1, TRANSPOSITION_COST)).toBe(1);
    expect(Vocabulary.fromText("beeb aaa").nearest("ebbe")).toBe("beeb");
  });

  it("finds the nearest word a brute-force scan finds", () => {
    const words = fc.array(fc.string({ unit: fc.constantFrom("a", "b", "e", "s", "t"), minLength: 3, maxLength: 9 }), { minLength: 1, maxLength: 40 });
    fc.assert(
      fc.property(words, fc.string({ unit: fc.constantFrom("a", "b", "e", "s", "t"), minLength: 3, maxLength: 9 }), (list, typed) => {
        const v = Vocabulary.fromText(list.join(" "));
        const max = maxEdits(typed);
        let best: string | null = null;
        let bestD = max + 1;
        for (const w of v.words) {
          // A swap of neighbours costs half an edit in the correction (issue 25: "noen" is "neon").
          const d = reference(typed, w, TRANSPOSITION_COST);
          if (d > max) continue;
          if (best === null || d < bestD || (d === bestD && v.countOf(w) > v.countOf(best)) || (d === bestD && v.countOf(w) === v.countOf(best) && w < best)) {
            best = w;
            bestD = d;
          }
        }
        expect(v.nearest(typed)).toBe(best);
      }),
      { numRuns: 500 },
    );
  });
});
