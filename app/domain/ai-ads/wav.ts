// Reading a WAV file's header: how long its sound lasts. The speech adapter checks its answers with it, and the AI
// ads' kept voice clips are measured again when read back (decisions 062, 067).

/** The length of a PCM WAV file in milliseconds, from its header (fmt byte rate, data size); null when it is not one. */
export function wavDurationMs(bytes: Uint8Array): number | null {
  const b = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (b.length < 44 || b.toString("latin1", 0, 4) !== "RIFF" || b.toString("latin1", 8, 12) !== "WAVE") return null;
  let at = 12;
  let byteRate = 0;
  while (at + 8 <= b.length) {
    const id = b.toString("latin1", at, at + 4);
    const size = b.readUInt32LE(at + 4);
    if (id === "fmt " && at + 20 <= b.length) byteRate = b.readUInt32LE(at + 16);
    if (id === "data") {
      // A streamed WAV may say 0 or 0xFFFFFFFF for its data size: then the rest of the file is the data.
      const data = size === 0 || at + 8 + size > b.length ? b.length - at - 8 : size;
      return byteRate > 0 ? Math.round((data / byteRate) * 1000) : null;
    }
    at += 8 + size + (size % 2);
  }
  return null;
}
