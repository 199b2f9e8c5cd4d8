// The credit history names the product a spend was for. The ledger keeps a sentence (`reason`), written
// by the services that spend credits, with the product's objectID in it; these are those sentences'
// shapes, so the billing page can show the product's title (and link to it) in place of the id.
const PRODUCT_REASONS: RegExp[] = [
  /^(product page for )([A-Za-z0-9._:-]+)()$/,
  /^(automatic mode: )([A-Za-z0-9._:-]+)( to .+)$/,
  /^(glitch mode: revealed )([A-Za-z0-9._:-]+)()$/,
];

export interface ReasonProduct {
  /** The words before and after the product's id. */
  before: string;
  objectID: string;
  after: string;
}

/** The product a ledger reason names, or null for a reason about no product. */
export function productInReason(reason: string | null): ReasonProduct | null {
  if (!reason) return null;
  for (const re of PRODUCT_REASONS) {
    const m = re.exec(reason);
    if (m) return { before: m[1], objectID: m[2], after: m[3] };
  }
  return null;
}
