// What a measured product's page adds to a product (docs/decisions/046, 048): its listings on the stores we
// observe (offers, each with the review count its page publishes: decision 094), its daily signals and the evidence
// of each match. Read-only: the catalogue services own
// these rows. Who follows a store is never read here: offers name stores, never their followers.
import type { Db } from "~/db.server";
import { noPictureSentence } from "~/domain/catalogue/picture-failures";
import { byComparablePrice, listedPriceConversion } from "~/domain/catalogue/prices";
import {
  listingUrl,
  matchReason,
  parseMeasuredSeries,
  priceCurrencyCode,
  signalsFromSeries,
  type MatchEvidence,
  type MeasuredSignals,
  type Offer,
} from "~/domain/catalogue/measured-product";
import { currentRateTable } from "~/services/landed-cost/exchange-rates.server";

export interface MeasuredDetail {
  offers: Offer[];
  signals: MeasuredSignals | null;
  matchEvidence: MatchEvidence[];
}

export const NO_MEASURED_DETAIL: MeasuredDetail = { offers: [], signals: null, matchEvidence: [] };

/** Listings (present ones as offers, cheapest first), signals and evidence of one measured product. */
export async function readMeasuredDetail(
  db: Db,
  productId: number,
  firstSeenAnywhere: Date,
  /** The product's price currency (Product.priceCurrency: null dollars, XXX unknown) and the day of its reference rate. */
  price: { priceCurrency: string | null; priceRateDate: string | null } = { priceCurrency: null, priceRateDate: null },
): Promise<MeasuredDetail> {
  const [members, stored, rates] = await Promise.all([
    db.catalogueMember.findMany({
      where: { productId },
      orderBy: { listingId: "asc" },
      select: {
        via: true,
        evidence: true,
        listing: {
          select: {
            handle: true,
            title: true,
            priceMinCents: true,
            available: true,
            firstSeenAt: true,
            removedAt: true,
            currency: true,
            store: { select: { domain: true } },
            picture: { select: { status: true, failure: true, retryAt: true } },
            reviews: { select: { count: true, countAt: true, note: true } },
          },
        },
      },
    }),
    db.productSignals.findUnique({ where: { productId }, select: { series: true } }),
    currentRateTable(db),
  ]);
  const offers: Offer[] = members
    .filter((m) => m.listing.removedAt === null)
    .map(({ listing }) => ({
      store: listing.store.domain,
      url: listingUrl(listing.store.domain, listing.handle),
      title: listing.title,
      priceCents: listing.priceMinCents,
      // The currency its store published when it was read, and the price in dollars at a dated rate beside it (decision 089).
      currency: listing.currency,
      ...listedPriceConversion(listing.priceMinCents, listing.currency, rates),
      available: listing.available,
      firstSeenAt: listing.firstSeenAt.toISOString(),
      // The count its product page published at the last read (decision 094); null: no review data, with why.
      reviews: listing.reviews?.count ?? null,
      reviewsAsOf: listing.reviews?.count != null && listing.reviews.countAt ? listing.reviews.countAt.toISOString().slice(0, 10) : null,
      reviewsNote: listing.reviews && listing.reviews.count === null ? listing.reviews.note : null,
    }))
    .sort(byComparablePrice);
  // Anchors first: the listing every other match was measured against.
  const matchEvidence: MatchEvidence[] = [...members]
    .sort((a, b) => Number(b.via === "anchor") - Number(a.via === "anchor"))
    .map((m) => ({
      listing: { store: m.listing.store.domain, title: m.listing.title, url: listingUrl(m.listing.store.domain, m.listing.handle) },
      via: m.via,
      reason: withPictureState(matchReason(m.via, m.evidence), m.listing.picture),
    }));
  const series = stored ? parseMeasuredSeries(stored.series) : null;
  return { offers, signals: series ? signalsFromSeries(series, firstSeenAnywhere.toISOString(), { currency: priceCurrencyCode(price.priceCurrency), rateDate: price.priceRateDate }) : null, matchEvidence };
}

/**
 * A member without a usable picture says so, and why, from its picture's state now (decision 091): "no picture
 * yet: the picture's server could not be reached; tried again at ...". A member whose picture is in says nothing more.
 */
function withPictureState(reason: string, picture: { status: string; failure: string | null; retryAt: Date | null } | null): string {
  const state = picture === null ? { status: "none" as const, failure: null, retryAt: null } : { ...picture, status: picture.status as "ok" | "pending" | "failed" };
  const said = noPictureSentence(state);
  if (said === null) return reason;
  // A title match's own sentence starts "no picture; ": the picture's state says it in full.
  return `${reason.replace(/^no picture; /, "")}; ${said}`;
}
