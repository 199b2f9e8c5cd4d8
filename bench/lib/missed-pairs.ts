// Why the simulated market's true pairs were missed (issue 37 item 3: recall on the simulated market must not fall
// with decision 087's look-alike rules). For every pair of listings of one true product that a match left in two
// products, the first reason that applies:
// - "look-alike rule: <rule>": the two listings' own traits keep them apart (lookAlikeRule: one store, a number,
//   a distinguishing noun, sibling words, an option);
// - "through a member, <rule>": the two could be one product, but a member of the other's product is kept apart from
//   one of them by that rule, and a product with such a member is refused (decision 087's grouping);
// - "pictures, titles or prices": the rules before 087 already refuse the pair (pairMatches without traits);
// - "placement": none of those; the listing joined another product first (nearest first, then most votes).
// Pure over the match's state: nothing is re-matched.
import { lookAlikeRule } from "~/domain/catalogue/look-alike";
import { pairMatches, type ClusterInput, type ClusterState } from "~/domain/catalogue/match";

export interface MissedPairs {
  missed: number;
  byReason: Map<string, number>;
  /** A few pairs per reason, as their normalised titles. */
  examples: Map<string, string[]>;
}

/** Members of a product compared per listing at most (the nearest-first placement compares no more either). */
const MEMBERS_READ = 64;

export function missedPairs(
  count: number,
  productOf: (id: number) => number,
  state: ClusterState,
  inputOf: (id: number) => ClusterInput,
  distance: (a: number, b: number) => number,
): MissedPairs {
  const byProduct = new Map<number, number[]>();
  for (let id = 1; id <= count; id++) {
    const p = productOf(id);
    const list = byProduct.get(p);
    if (list) list.push(id);
    else byProduct.set(p, [id]);
  }
  const out: MissedPairs = { missed: 0, byReason: new Map(), examples: new Map() };
  const note = (reason: string, a: number, b: number) => {
    out.missed++;
    out.byReason.set(reason, (out.byReason.get(reason) ?? 0) + 1);
    const examples = out.examples.get(reason) ?? [];
    if (examples.length < 4) examples.push(`"${inputOf(a).title.words.join(" ")}" / "${inputOf(b).title.words.join(" ")}"`);
    out.examples.set(reason, examples);
  };
  const throughMember = (a: ClusterInput, members: ReadonlyArray<{ id: number }>) => {
    for (let i = 0; i < members.length && i < MEMBERS_READ; i++) {
      const m = inputOf(members[i].id);
      const rule = lookAlikeRule(a.traits, m.traits, a.title, m.title);
      if (rule) return `${rule.rule} (a member of ${productOf(m.id) === productOf(a.id) ? "the same" : "another"} true product)`;
    }
    return null;
  };
  for (const ids of byProduct.values()) {
    if (ids.length < 2) continue;
    for (let i = 0; i < ids.length; i++)
      for (let j = i + 1; j < ids.length; j++) {
        const ca = state.of(ids[i]);
        const cb = state.of(ids[j]);
        if (!ca || !cb || ca === cb) continue;
        const a = inputOf(ids[i]);
        const b = inputOf(ids[j]);
        const own = lookAlikeRule(a.traits, b.traits, a.title, b.title);
        if (own) {
          note(`look-alike rule: ${own.rule}`, a.id, b.id);
          continue;
        }
        const plain = { ...a, traits: undefined };
        if (!pairMatches(plain, { ...b, traits: undefined }, distance(a.id, b.id), a.pictureIsEvidence && b.pictureIsEvidence)) {
          note("pictures, titles or prices (as before decision 087)", a.id, b.id);
          continue;
        }
        const via = throughMember(a, cb.members) ?? throughMember(b, ca.members);
        note(via ? `through a member, look-alike rule: ${via}` : "placement (another product first)", a.id, b.id);
      }
  }
  return out;
}

/** The lines the bench prints. */
export function describeMissed(m: MissedPairs): string[] {
  return [...m.byReason]
    .sort((x, y) => y[1] - x[1])
    .map(([reason, n]) => `${reason}: ${n} pairs (${((100 * n) / Math.max(1, m.missed)).toFixed(1)}%), e.g. ${(m.examples.get(reason) ?? []).slice(0, 2).join("; ")}`);
}
