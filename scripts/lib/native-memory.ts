// libsql-js (0.3, under @libsql/client 0.8) frees a statement's native memory, including its SQL
// text and bound values, only in an N-API finalizer: after V8 has collected the statement object in
// a full GC *and* the event loop has turned. A bulk import binds gigabytes of payload in a tight
// async loop, so without help the process keeps all of it (measured: ~3.5 GB of RSS for 1M
// products). The import scripts call releaseNativeMemory() every few batches: a full GC, then one
// event-loop turn so the finalizers run. (Memory settles on its own once the loop goes idle.)
import v8 from "node:v8";
import vm from "node:vm";

let collect: (() => void) | null | undefined;

function fullGc(): (() => void) | null {
  if (collect === undefined) {
    try {
      v8.setFlagsFromString("--expose-gc");
      collect = vm.runInNewContext("gc") as () => void;
    } catch {
      collect = null;
    }
  }
  return collect;
}

export async function releaseNativeMemory(): Promise<void> {
  fullGc()?.();
  await new Promise((resolve) => setImmediate(resolve));
}

/** Passes items through, releasing native memory every `every` items. */
export async function* releasingEvery<T>(items: AsyncIterable<T> | Iterable<T>, every: number): AsyncGenerator<T> {
  let n = 0;
  for await (const item of items) {
    if (++n % every === 0) await releaseNativeMemory();
    yield item;
  }
}
