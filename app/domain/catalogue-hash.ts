// 64-bit perceptual picture hashes and the index that finds near ones without comparing all pairs
// (docs/decisions/046-measured-catalogue.md). A hash is kept as 16 hex digits in storage and as two unsigned
// 32-bit halves in memory (JavaScript has no fast 64-bit integers; BigInt is ~20x slower here).
//
// Multi-index hashing (Norouzi, Punjani and Fleet, 2012): the 64 bits are cut into 4 bands of 16. Two hashes at
// most r bits apart differ in at most floor(r / 4) bits in at least one band (pigeonhole), so the candidates of
// a query are the hashes whose band equals one of the query's band values within floor(r / 4) flipped bits, and
// each candidate is then checked on all 64 bits. Each band is a counting-sorted table (offsets by band value,
// ids in one Uint32Array): 1,000,000 hashes take ~4 x 4 MB plus 4 x 256 KB of offsets. Hashes added after the
// build go to a small overflow list per band, merged on the next build.
// Pure: no I/O.

export const HASH_BITS = 64;
const BANDS = 4;
const BAND_BITS = 16;
const BAND_VALUES = 1 << BAND_BITS;

export interface Hash64 {
  hi: number;
  lo: number;
}

/** Parses 16 hex digits; null for anything else. */
export function parseHash(hex: string): Hash64 | null {
  if (!/^[0-9a-f]{16}$/i.test(hex)) return null;
  return { hi: Number.parseInt(hex.slice(0, 8), 16) >>> 0, lo: Number.parseInt(hex.slice(8), 16) >>> 0 };
}

export function formatHash(hash: Hash64): string {
  return (hash.hi >>> 0).toString(16).padStart(8, "0") + (hash.lo >>> 0).toString(16).padStart(8, "0");
}

/** Bits set in a 32-bit value (the classic SWAR count). */
export function popcount32(value: number): number {
  let v = value >>> 0;
  v -= (v >>> 1) & 0x55555555;
  v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
  return (Math.imul((v + (v >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24) & 0xff;
}

/** Bits that differ between two hashes, 0..64. */
export function hammingDistance(a: Hash64, b: Hash64): number {
  return popcount32(a.hi ^ b.hi) + popcount32(a.lo ^ b.lo);
}

function band(hi: number, lo: number, index: number): number {
  switch (index) {
    case 0:
      return hi >>> 16;
    case 1:
      return hi & 0xffff;
    case 2:
      return lo >>> 16;
    default:
      return lo & 0xffff;
  }
}

/** Every 16-bit value within `radius` flipped bits of `value`, value itself first. */
function neighbours(value: number, radius: number, out: number[]): number[] {
  out.length = 0;
  out.push(value);
  if (radius >= 1) for (let i = 0; i < BAND_BITS; i++) out.push(value ^ (1 << i));
  if (radius >= 2)
    for (let i = 0; i < BAND_BITS; i++) for (let j = i + 1; j < BAND_BITS; j++) out.push(value ^ (1 << i) ^ (1 << j));
  if (radius >= 3)
    for (let i = 0; i < BAND_BITS; i++)
      for (let j = i + 1; j < BAND_BITS; j++)
        for (let k = j + 1; k < BAND_BITS; k++) out.push(value ^ (1 << i) ^ (1 << j) ^ (1 << k));
  if (radius >= 4) throw new RangeError("search radius above 15 bits is not supported: widen the bands instead");
  return out;
}

export interface NearHash {
  /** The id given to add() or build(). */
  id: number;
  distance: number;
}

/**
 * An index of hashes by id (ids are the caller's, 0 <= id < 2^32). build() lays out everything known so far;
 * add() appends one hash without rebuilding. near() returns every indexed hash within `radius` bits (at most
 * 15), each once, nearest first, ties by id.
 */
export class HashIndex {
  private hi = new Uint32Array(0);
  private lo = new Uint32Array(0);
  private ids = new Uint32Array(0);
  private count = 0;
  private offsets: Uint32Array[] = [];
  private sorted: Uint32Array[] = [];
  private builtCount = 0;
  private overflow: Map<number, number[]>[] = [];
  private readonly probe: number[] = [];

  constructor(capacity = 1024) {
    this.grow(capacity);
    this.build();
  }

  get size(): number {
    return this.count;
  }

  private grow(capacity: number) {
    const hi = new Uint32Array(capacity);
    const lo = new Uint32Array(capacity);
    const ids = new Uint32Array(capacity);
    hi.set(this.hi.subarray(0, this.count));
    lo.set(this.lo.subarray(0, this.count));
    ids.set(this.ids.subarray(0, this.count));
    this.hi = hi;
    this.lo = lo;
    this.ids = ids;
  }

  /** Adds one hash; found by near() at once (through the overflow lists until the next build). */
  add(id: number, hash: Hash64): void {
    if (this.count === this.hi.length) this.grow(Math.max(1024, this.hi.length * 2));
    const slot = this.count++;
    this.hi[slot] = hash.hi >>> 0;
    this.lo[slot] = hash.lo >>> 0;
    this.ids[slot] = id >>> 0;
    for (let b = 0; b < BANDS; b++) {
      const key = band(this.hi[slot], this.lo[slot], b);
      const list = this.overflow[b].get(key);
      if (list) list.push(slot);
      else this.overflow[b].set(key, [slot]);
    }
  }

  /** Lays every hash out in the counting-sorted tables and empties the overflow lists. */
  build(): void {
    this.offsets = [];
    this.sorted = [];
    this.overflow = [];
    for (let b = 0; b < BANDS; b++) {
      const offsets = new Uint32Array(BAND_VALUES + 1);
      for (let slot = 0; slot < this.count; slot++) offsets[band(this.hi[slot], this.lo[slot], b) + 1]++;
      for (let v = 0; v < BAND_VALUES; v++) offsets[v + 1] += offsets[v];
      const cursor = offsets.slice(0, BAND_VALUES);
      const sorted = new Uint32Array(this.count);
      for (let slot = 0; slot < this.count; slot++) sorted[cursor[band(this.hi[slot], this.lo[slot], b)]++] = slot;
      this.offsets.push(offsets);
      this.sorted.push(sorted);
      this.overflow.push(new Map());
    }
    this.builtCount = this.count;
  }

  /**
   * Every indexed hash within `radius` bits of `hash`. A candidate reached through band b is skipped when an
   * earlier band already reached it (its band there is within the band radius), so no set of seen ids is needed.
   */
  near(hash: Hash64, radius: number): NearHash[] {
    if (radius < 0 || radius > 15 || !Number.isInteger(radius)) throw new RangeError("radius must be a whole number of bits from 0 to 15");
    const found: NearHash[] = [];
    const bandRadius = Math.floor(radius / BANDS);
    const qhi = hash.hi >>> 0;
    const qlo = hash.lo >>> 0;
    const hiArr = this.hi;
    const loArr = this.lo;
    const check = (slot: number, b: number) => {
      const shi = hiArr[slot];
      const slo = loArr[slot];
      for (let earlier = 0; earlier < b; earlier++) if (popcount32(band(shi, slo, earlier) ^ band(qhi, qlo, earlier)) <= bandRadius) return;
      const distance = popcount32(shi ^ qhi) + popcount32(slo ^ qlo);
      if (distance <= radius) found.push({ id: this.ids[slot], distance });
    };
    for (let b = 0; b < BANDS; b++) {
      const offsets = this.offsets[b];
      const sorted = this.sorted[b];
      const overflow = this.overflow[b];
      for (const key of neighbours(band(qhi, qlo, b), bandRadius, this.probe)) {
        for (let i = offsets[key]; i < offsets[key + 1]; i++) check(sorted[i], b);
        const extra = overflow.get(key);
        if (extra) for (const slot of extra) check(slot, b);
      }
    }
    return found.sort((x, y) => x.distance - y.distance || x.id - y.id);
  }

  /** Hashes added since the last build (to decide when a rebuild pays). */
  get unbuilt(): number {
    return this.count - this.builtCount;
  }
}

/** The port the picture-hashing adapter implements (app/integrations/picture-fingerprint.server.ts). */
export interface PictureFingerprinter {
  /** The picture's 64-bit perceptual hash as 16 hex digits; throws a sentence when the bytes are not a picture. */
  fingerprint(bytes: Buffer): Promise<string>;
}

/**
 * Whether two picture URLs name the same file, differing at most in the `v` query parameter: Shopify's CDN puts
 * the upload time there, and some stores' apps touch every image on every sync, so the URL changes on each read
 * while the picture does not (a fingerprint is kept rather than fetched again; a replaced file gets a new name).
 */
export function samePictureFile(a: string, b: string): boolean {
  if (a === b) return true;
  let x: URL;
  let y: URL;
  try {
    x = new URL(a);
    y = new URL(b);
  } catch {
    return false;
  }
  const rest = (u: URL) => {
    const params = [...u.searchParams].filter(([k]) => k !== "v").map(([k, v]) => `${k}=${v}`);
    return `${u.protocol}//${u.host}${u.pathname}?${params.sort().join("&")}#${u.hash}`;
  };
  return rest(x) === rest(y);
}
