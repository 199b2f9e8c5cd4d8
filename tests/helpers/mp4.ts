// Reads the few facts of an MP4 file the video tests check, straight from its boxes (ISO/IEC 14496-12):
// the top-level box types, the movie's duration (mvhd), the video track's duration and size (mdhd,
// tkhd) and its sample (frame) count (stsz). Enough for files the built-in renderer writes.
export interface Mp4Facts {
  topLevel: string[];
  brand: string;
  movieDurationMs: number;
  trackDurationMs: number;
  frames: number;
  width: number;
  height: number;
}

interface Box {
  type: string;
  start: number;
  end: number;
  body: number;
}

function boxes(buf: Buffer, start: number, end: number): Box[] {
  const out: Box[] = [];
  let at = start;
  while (at + 8 <= end) {
    let size = buf.readUInt32BE(at);
    const type = buf.toString("latin1", at + 4, at + 8);
    let body = at + 8;
    if (size === 1) {
      size = Number(buf.readBigUInt64BE(at + 8));
      body = at + 16;
    } else if (size === 0) size = end - at;
    if (size < 8 || at + size > end) throw new Error(`bad box ${type} at ${at}`);
    out.push({ type, start: at, end: at + size, body });
    at += size;
  }
  return out;
}

function child(buf: Buffer, parent: Box, type: string): Box {
  const found = boxes(buf, parent.body, parent.end).find((b) => b.type === type);
  if (!found) throw new Error(`no ${type} in ${parent.type}`);
  return found;
}

/** timescale and duration of an mvhd or mdhd (versions 0 and 1). */
function timing(buf: Buffer, box: Box): { timescale: number; duration: number } {
  const version = buf[box.body];
  if (version === 1) return { timescale: buf.readUInt32BE(box.body + 20), duration: Number(buf.readBigUInt64BE(box.body + 24)) };
  return { timescale: buf.readUInt32BE(box.body + 12), duration: buf.readUInt32BE(box.body + 16) };
}

export function readMp4(bytes: Uint8Array): Mp4Facts {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const top = boxes(buf, 0, buf.length);
  const ftyp = top.find((b) => b.type === "ftyp");
  const moov = top.find((b) => b.type === "moov");
  if (!ftyp || !moov) throw new Error(`not an MP4: top-level boxes ${top.map((b) => b.type).join(",")}`);
  const mvhd = timing(buf, child(buf, moov, "mvhd"));
  const trak = boxes(buf, moov.body, moov.end).find((b) => {
    if (b.type !== "trak") return false;
    const hdlr = child(buf, child(buf, b, "mdia"), "hdlr");
    return buf.toString("latin1", hdlr.body + 8, hdlr.body + 12) === "vide";
  });
  if (!trak) throw new Error("no video track");
  const tkhd = child(buf, trak, "tkhd");
  const tkhdEnd = tkhd.end;
  const mdia = child(buf, trak, "mdia");
  const mdhd = timing(buf, child(buf, mdia, "mdhd"));
  const stsz = child(buf, child(buf, child(buf, mdia, "minf"), "stbl"), "stsz");
  return {
    topLevel: top.map((b) => b.type),
    brand: buf.toString("latin1", ftyp.body, ftyp.body + 4),
    movieDurationMs: Math.round((mvhd.duration * 1000) / mvhd.timescale),
    trackDurationMs: Math.round((mdhd.duration * 1000) / mdhd.timescale),
    frames: buf.readUInt32BE(stsz.body + 8),
    // tkhd ends with width and height as 16.16 fixed point.
    width: buf.readUInt32BE(tkhdEnd - 8) / 65536,
    height: buf.readUInt32BE(tkhdEnd - 4) / 65536,
  };
}
