// 64-bit perceptual picture hashes and the index that finds near ones without comparing all pairs
// (docs/decisions/046-measured-catalogue.md). A hash is kept as 16 hex digits in storage and as two unsigned
// 32-bit halves in memory (JavaScript has no fast 64-bit integers; BigInt is ~20x slower here).
//
// Multi-index hashing (Norouzi, Punjani and Fleet, 2012): the 64 bits are cut into 4 bands of 16. Two hashes at
// most r bits apart differ in at most floor(r / 4) bits in at least one band (pigeonhole), so the candidates of
// a query are the hashes whose band equals one of the query's band values within floor(r / 4) flipped bits, and
// each candidate is then checked on all 64 bits. Each band is a counting-sorted table (offsets by band value, the
// hashes and ids in typed arrays; see HashIndex for the memory). Hashes added after the build are chained per
// band value, merged on the next build.
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

/** XOR masks of every 16-bit value within `radius` flipped bits (radius 0..3), the value itself first. */
const PROBES: Uint32Array[] = (() => {
  const masks: number[] = [0];
  const byRadius: Uint32Array[] = [Uint32Array.from(masks)];
  for (let i = 0; i < BAND_BITS; i++) masks.push(1 << i);
  byRadius.push(Uint32Array.from(masks));
  for (let i = 0; i < BAND_BITS; i++) for (let j = i + 1; j < BAND_BITS; j++) masks.push((1 << i) | (1 << j));
  byRadius.push(Uint32Array.from(masks));
  for (let i = 0; i < BAND_BITS; i++)
    for (let j = i + 1; j < BAND_BITS; j++) for (let k = j + 1; k < BAND_BITS; k++) masks.push((1 << i) | (1 << j) | (1 << k));
  byRadius.push(Uint32Array.from(masks));
  return byRadius;
})();

/** Hashes added since the last build past which a caller adding one at a time should build() again. */
export const REBUILD_AFTER = 4096;

export interface NearHash {
  /** The id given to add() or build(). */
  id: number;
  distance: number;
}

/** One band's counting-sorted table: the hashes themselves laid out by band value, so a bucket is read in order. */
interface BandTable {
  /** offsets[v] .. offsets[v + 1]: the entries whose band value is v. */
  offsets: Uint32Array;
  hi: Uint32Array;
  lo: Uint32Array;
  ids: Uint32Array;
}

/**
 * An index of hashes by id (ids are the caller's, 0 <= id < 2^32). build() lays out everything known so far;
 * add() appends one hash without rebuilding. near() returns every indexed hash within `radius` bits (at most
 * 15), each once, nearest first, ties by id.
 *
 * Memory: 12 bytes a hash for the hashes as added, 48 bytes a hash for the four band tables (each keeps its own
 * copy of the hashes, so scanning a bucket reads memory in order instead of jumping to each slot: at a million
 * hashes a wide look-up checks ~30,000 of them), and per band 256 KB of offsets and 256 KB of overflow heads.
 * Hashes added since the last build are chained per band value in typed arrays (no object per hash).
 */
export class HashIndex {
  private hi = new Uint32Array(0);
  private lo = new Uint32Array(0);
  private ids = new Uint32Array(0);
  private count = 0;
  private readonly tables: BandTable[] = [];
  private builtCount = 0;
  /** Per band: the last slot added since the build with that band value (-1 when none), and each slot's previous. */
  private readonly overflowHead: Int32Array[] = [];
  private overflowNext: Int32Array[] = [];

  constructor(capacity = 1024) {
    for (let b = 0; b < BANDS; b++) this.overflowHead.push(new Int32Array(BAND_VALUES).fill(-1));
    this.grow(Math.max(1, capacity));
    this.build();
  }

  get size(): number {
    return this.count;
  }

  private grow(capacity: number) {
    const copy = <T extends Uint32Array | Int32Array>(from: T, to: T): T => {
      to.set(from.subarray(0, this.count));
      return to;
    };
    this.hi = copy(this.hi, new Uint32Array(capacity));
    this.lo = copy(this.lo, new Uint32Array(capacity));
    this.ids = copy(this.ids, new Uint32Array(capacity));
    this.overflowNext = Array.from({ length: BANDS }, (_, b) => copy(this.overflowNext[b] ?? new Int32Array(0), new Int32Array(capacity)));
  }

  /** Adds one hash; found by near() at once (through the overflow chains until the next build). */
  add(id: number, hash: Hash64): void {
    if (this.count === this.hi.length) this.grow(Math.max(1024, this.hi.length * 2));
    const slot = this.count++;
    const hi = hash.hi >>> 0;
    const lo = hash.lo >>> 0;
    this.hi[slot] = hi;
    this.lo[slot] = lo;
    this.ids[slot] = id >>> 0;
    for (let b = 0; b < BANDS; b++) {
      const key = band(hi, lo, b);
      this.overflowNext[b][slot] = this.overflowHead[b][key];
      this.overflowHead[b][key] = slot;
    }
  }

  /**
   * Lays every hash out in the counting-sorted tables and empties the overflow chains. The tables' arrays are
   * reused while they are large enough, so rebuilding often (see near()) makes no garbage.
   */
  build(): void {
    for (let b = 0; b < BANDS; b++) {
      let table = this.tables[b];
      if (!table || table.hi.length < this.count) {
        const size = Math.max(this.count, this.hi.length);
        table = { offsets: new Uint32Array(BAND_VALUES + 1), hi: new Uint32Array(size), lo: new Uint32Array(size), ids: new Uint32Array(size) };
        this.tables[b] = table;
      }
      const { offsets, hi, lo, ids } = table;
      offsets.fill(0);
      for (let slot = 0; slot < this.count; slot++) offsets[band(this.hi[slot], this.lo[slot], b) + 1]++;
      for (let v = 0; v < BAND_VALUES; v++) offsets[v + 1] += offsets[v];
      const cursor = offsets.slice(0, BAND_VALUES);
      for (let slot = 0; slot < this.count; slot++) {
        const at = cursor[band(this.hi[slot], this.lo[slot], b)]++;
        hi[at] = this.hi[slot];
        lo[at] = this.lo[slot];
        ids[at] = this.ids[slot];
      }
      this.overflowHead[b].fill(-1);
    }
    this.builtCount = this.count;
  }

  /**
   * Every indexed hash within `radius` bits of `hash`. Each candidate is checked on all 64 bits first (most are
   * far); one within the radius reached through band b is skipped when an earlier band already reached it (its
   * band there is within the band radius), so no set of seen ids is needed.
   */
  near(hash: Hash64, radius: number): NearHash[] {
    if (radius < 0 || radius > 15 || !Number.isInteger(radius)) throw new RangeError("radius must be a whole number of bits from 0 to 15");
    const found: NearHash[] = [];
    const bandRadius = Math.floor(radius / BANDS);
    const probes = PROBES[bandRadius];
    const qhi = hash.hi >>> 0;
    const qlo = hash.lo >>> 0;
    const firstReachedAt = (shi: number, slo: number, b: number): boolean => {
      for (let earlier = 0; earlier < b; earlier++) if (popcount32(band(shi, slo, earlier) ^ band(qhi, qlo, earlier)) <= bandRadius) return false;
      return true;
    };
    // Hashes added since the build: when they are fewer than the buckets a look-up would probe for them, reading
    // them all in order is cheaper than jumping to each bucket's chain (a wide look-up probes 2,788 buckets).
    const scanOverflow = this.count - this.builtCount <= probes.length * BANDS;
    if (scanOverflow) {
      for (let slot = this.builtCount; slot < this.count; slot++) {
        const distance = popcount32(this.hi[slot] ^ qhi) + popcount32(this.lo[slot] ^ qlo);
        if (distance <= radius) found.push({ id: this.ids[slot], distance });
      }
    }
    for (let b = 0; b < BANDS; b++) {
      const table = this.tables[b];
      const offsets = table.offsets;
      const hi = table.hi;
      const lo = table.lo;
      const value = band(qhi, qlo, b);
      for (let p = 0; p < probes.length; p++) {
        const key = value ^ probes[p];
        const end = offsets[key + 1];
        for (let i = offsets[key]; i < end; i++) {
          // The hot loop of the whole match: the 64-bit distance written out (two SWAR popcounts).
          let x = hi[i] ^ qhi;
          x -= (x >>> 1) & 0x55555555;
          x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
          let y = lo[i] ^ qlo;
          y -= (y >>> 1) & 0x55555555;
          y = (y & 0x33333333) + ((y >>> 2) & 0x33333333);
          const distance = (Math.imul((x + (x >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24) + (Math.imul((y + (y >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24);
          if (distance <= radius && firstReachedAt(hi[i], lo[i], b)) found.push({ id: table.ids[i], distance });
        }
        if (scanOverflow) continue;
        const head = this.overflowHead[b];
        const next = this.overflowNext[b];
        for (let slot = head[key]; slot !== -1; slot = next[slot]) {
          const shi = this.hi[slot];
          const slo = this.lo[slot];
          const distance = popcount32(shi ^ qhi) + popcount32(slo ^ qlo);
          if (distance <= radius && firstReachedAt(shi, slo, b)) found.push({ id: this.ids[slot], distance });
        }
      }
    }
    return found.sort((x, y) => x.distance - y.distance || x.id - y.id);
  }

  /**
   * Hashes added since the last build (to decide when a rebuild pays). Rebuilding at REBUILD_AFTER keeps every
   * look-up reading the few new hashes in order rather than chasing chains.
   */
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
