// Text widths from the fonts the renderer draws with (docs/decisions/033): a small reader of a TrueType
// file's horizontal metrics (head.unitsPerEm, hhea.numberOfHMetrics, hmtx advance widths, and the cmap
// format 4 table that maps characters to glyphs), so captions are measured with the same advances resvg
// lays them out with, instead of guessed from an average character width. Kerning is not read: callers
// keep a small margin.
import { readFileSync } from "node:fs";

export interface FontMetrics {
  /** Width in px of `text` at `fontSize` px. */
  width(text: string, fontSize: number): number;
}

interface Tables {
  unitsPerEm: number;
  advances: Uint16Array;
  glyphOf: (code: number) => number;
}

function parse(buf: Buffer): Tables {
  const numTables = buf.readUInt16BE(4);
  const tables = new Map<string, number>();
  for (let i = 0; i < numTables; i++) {
    const at = 12 + i * 16;
    tables.set(buf.toString("latin1", at, at + 4), buf.readUInt32BE(at + 8));
  }
  const need = (tag: string) => {
    const offset = tables.get(tag);
    if (offset === undefined) throw new Error(`font has no ${tag} table`);
    return offset;
  };
  const unitsPerEm = buf.readUInt16BE(need("head") + 18);
  const numberOfHMetrics = buf.readUInt16BE(need("hhea") + 34);
  const hmtx = need("hmtx");
  const advances = new Uint16Array(numberOfHMetrics);
  for (let i = 0; i < numberOfHMetrics; i++) advances[i] = buf.readUInt16BE(hmtx + i * 4);
  // cmap: the Unicode BMP subtable in format 4.
  const cmap = need("cmap");
  const count = buf.readUInt16BE(cmap + 2);
  let sub = -1;
  for (let i = 0; i < count; i++) {
    const platform = buf.readUInt16BE(cmap + 4 + i * 8);
    const encoding = buf.readUInt16BE(cmap + 6 + i * 8);
    const offset = cmap + buf.readUInt32BE(cmap + 8 + i * 8);
    if (buf.readUInt16BE(offset) === 4 && ((platform === 3 && encoding === 1) || platform === 0)) {
      sub = offset;
      break;
    }
  }
  if (sub < 0) throw new Error("font has no format 4 cmap");
  const segX2 = buf.readUInt16BE(sub + 6);
  const ends = sub + 14;
  const starts = ends + segX2 + 2;
  const deltas = starts + segX2;
  const rangeOffsets = deltas + segX2;
  const cache = new Map<number, number>();
  const glyphOf = (code: number): number => {
    if (code > 0xffff) return 0;
    const hit = cache.get(code);
    if (hit !== undefined) return hit;
    let glyph = 0;
    for (let s = 0; s < segX2; s += 2) {
      if (code > buf.readUInt16BE(ends + s)) continue;
      const start = buf.readUInt16BE(starts + s);
      if (code < start) break;
      const delta = buf.readInt16BE(deltas + s);
      const ro = buf.readUInt16BE(rangeOffsets + s);
      if (ro === 0) glyph = (code + delta) & 0xffff;
      else {
        const g = buf.readUInt16BE(rangeOffsets + s + ro + (code - start) * 2);
        glyph = g === 0 ? 0 : (g + delta) & 0xffff;
      }
      break;
    }
    cache.set(code, glyph);
    return glyph;
  };
  return { unitsPerEm, advances, glyphOf };
}

const loaded = new Map<string, FontMetrics>();

/** Metrics of one font file (read once per process). */
export function fontMetrics(file: string): FontMetrics {
  const known = loaded.get(file);
  if (known) return known;
  const t = parse(readFileSync(file));
  const last = t.advances.length - 1;
  const metrics: FontMetrics = {
    width(text, fontSize) {
      let units = 0;
      for (const ch of text) {
        const g = t.glyphOf(ch.codePointAt(0) ?? 0);
        units += t.advances[Math.min(g, last)];
      }
      return (units * fontSize) / t.unitsPerEm;
    },
  };
  loaded.set(file, metrics);
  return metrics;
}
