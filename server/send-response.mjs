// A Fetch Response written to Express's res, as @remix-run/express's sendRemixResponse writes it, with the two
// things its body loop (writeReadableStreamToWritable) leaves out (docs/decisions/083):
// - backpressure: when res.write says the socket (or the compressor in front of it) is full, the next chunk is read
//   from the body only after 'drain'. Remix's loop reads on regardless: a streamed body whose pull() needs no I/O
//   to finish (the exports read SQLite through a synchronous driver) then runs as one chain of microtasks, holding
//   the event loop until the whole file sits in memory, 16-21 s for a 100,000-row export;
// - a client that goes away: the body is cancelled when the response closes before it finished, so its source
//   stops reading (the stream's cancel()), instead of being read to the end into a dead socket.
// Plain JavaScript: the server runs without a build step of its own.

/**
 * @param {import("express").Response} res
 * @param {Response} response
 */
export async function sendResponse(res, response) {
  res.statusMessage = response.statusText;
  res.status(response.status);
  for (const [key, value] of response.headers.entries()) res.append(key, value);
  if (/text\/event-stream/i.test(response.headers.get("Content-Type") ?? "")) res.flushHeaders();
  if (response.body) await writeBody(response.body, res);
  else res.end();
}

/**
 * Writes `body` to `res` a chunk at a time, waiting for 'drain' whenever a write is refused, and cancels `body`
 * when `res` closes first (the client went away, or the socket was destroyed).
 * @param {ReadableStream<Uint8Array>} body
 * @param {import("node:http").ServerResponse & { flush?: () => void }} res
 */
export async function writeBody(body, res) {
  const reader = body.getReader();
  let gone = res.destroyed;
  /** @type {(() => void) | null} */
  let wake = null;
  const resume = () => {
    const w = wake;
    wake = null;
    w?.();
  };
  const onClose = () => {
    if (res.writableFinished) return;
    gone = true;
    reader.cancel(new Error("The client closed the connection before the response finished.")).catch(() => {});
    resume();
  };
  // One listener each for the whole body (the compression middleware forwards 'drain' listeners to its zlib
  // stream and does not take them off again: a listener per wait would pile up there).
  res.on("close", onClose);
  res.on("drain", resume);
  try {
    for (;;) {
      if (gone) return;
      const { done, value } = await reader.read();
      if (done) {
        if (!gone) res.end();
        return;
      }
      if (gone) return;
      const more = res.write(value);
      // The compression middleware buffers until flushed: each chunk goes out as it is made (as Remix does).
      res.flush?.();
      if (!more && !gone) await new Promise((resolve) => (wake = () => resolve(undefined)));
    }
  } catch (error) {
    res.destroy(/** @type {Error} */ (error));
    throw error;
  } finally {
    res.off("close", onClose);
    res.off("drain", resume);
  }
}
