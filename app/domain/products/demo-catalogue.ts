// The demo catalogue (the generated products of the first-start seed, `npm run products:generate` and
// the benchmarks) is sample data, and says so wherever a seller could mistake it for a real lead:
// its supplier is named DEMO_SUPPLIER_NAME and has no link (docs/decisions/028).

export const DEMO_SUPPLIER_NAME = "Demo supplier (sample data)";

/** Whether a product's supplier is the demo catalogue's stand-in (shown as "Demo data", never as a lead). */
export function isDemoSupplier(name: string | null | undefined): boolean {
  return name === DEMO_SUPPLIER_NAME;
}
