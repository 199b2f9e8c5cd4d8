// Runs the catalogue's real pair rules over the labelled set (./set.ts; docs/decisions/087): each listing's
// picture drawn and fingerprinted by the real adapter, its title, prices, options, vendor and variants turned into
// the match input the matching service builds, and every labelled pair decided by decidePair.
import { hammingDistance, parseHash } from "~/domain/catalogue/hash";
import { listingTraits, siblingWords, titleMarks, type SiblingWords } from "~/domain/catalogue/look-alike";
import { decidePair, type ListingForMatch } from "~/domain/catalogue/match";
import { normaliseTitle } from "~/domain/catalogue/title";
import { createPictureFingerprinter } from "~/integrations/picture-fingerprint.server";
import { buildLabelledSet, drawListingPicture, scoreDecisions, type LabelledSet, type SetListing, type SetQuality } from "./set";

/** The match input of a set listing, as app/services/catalogue/matching.server.ts builds it from a stored listing. */
export function setListingInput(l: SetListing, siblings: SiblingWords): ListingForMatch {
  const title = normaliseTitle(l.title);
  const traits = listingTraits(l.title, title, { storeId: l.storeId, vendor: l.vendor, options: l.options, variants: l.variants }, siblings);
  return { id: l.id, title, priceCents: l.priceCents, currency: l.currency, traits };
}

/** The set's listings as match inputs, with the sibling words their stores' catalogues teach. */
export function setInputs(set: LabelledSet, hashes: Map<number, string>): Map<number, ListingForMatch> {
  const siblings = siblingWords(
    set.listings.map((l) => {
      const title = normaliseTitle(l.title);
      return { storeId: l.storeId, words: title.words, marks: titleMarks(l.title, title), picture: parseHash(hashes.get(l.id) ?? "") };
    }),
  );
  return new Map(set.listings.map((l) => [l.id, setListingInput(l, siblings)]));
}

/** The set with every listing's picture fingerprinted (hex, by listing id). */
export async function fingerprintedSet(seed?: number): Promise<{ set: LabelledSet; hashes: Map<number, string> }> {
  const set = buildLabelledSet(seed);
  const fingerprinter = createPictureFingerprinter();
  const hashes = new Map<number, string>();
  for (const l of set.listings) hashes.set(l.id, await fingerprinter.fingerprint(await drawListingPicture(l)));
  return { set, hashes };
}

/** Precision and recall of the pair rules on the set. */
export function scoreSet(set: LabelledSet, hashes: Map<number, string>): SetQuality {
  const inputs = setInputs(set, hashes);
  return scoreDecisions(set, (a, b) => {
    const distance = hammingDistance(parseHash(hashes.get(a.id)!)!, parseHash(hashes.get(b.id)!)!);
    return decidePair(inputs.get(a.id)!, inputs.get(b.id)!, distance);
  });
}

/** The figures as lines of text, worst kinds first. */
export function describeQuality(q: SetQuality, examples = true): string[] {
  const lines = [
    `precision ${q.precision.toFixed(4)}  recall ${q.recall.toFixed(4)}  (${q.truePairs} true pairs, ${q.negatives} hard negatives: ${q.rightMatches} right, ${q.wrongMatches} wrongly joined, ${q.missed} missed)`,
  ];
  for (const [kind, k] of [...q.byKind].sort((a, b) => b[1].wrong - a[1].wrong)) {
    if (k.wrong === 0) continue;
    lines.push(`  ${kind}: ${k.wrong} of ${k.pairs} wrong`);
    if (examples) for (const e of k.examples) lines.push(`    ${e}`);
  }
  return lines;
}
