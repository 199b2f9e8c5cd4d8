// One page of one export per turn of the event loop, however many exports run in this process (issue 35 item 1,
// decision 093). The rows are read through a synchronous driver, so a page's work holds the event loop from its start
// to its end. Each export waiting for its own setImmediate (decision 083) let them all run in the same turn: eight
// exports at once held the loop for eight pages between two answers to anyone else. Here they queue, first come first
// served, and the queue lets one page go per turn, so the longest hold is one page's, whatever the concurrency.
// Plain functions of module state: the event loop is the process's, and so is the queue.

const waiting: (() => void)[] = [];
let scheduled = false;

function next() {
  scheduled = false;
  const go = waiting.shift();
  // Scheduled from inside a setImmediate callback, the next one runs on the next turn, after the loop has polled for I/O.
  if (waiting.length > 0) schedule();
  go?.();
}

function schedule() {
  if (scheduled) return;
  scheduled = true;
  setImmediate(next);
}

/** Resolves on a later turn of the event loop than the call, when no other export's page has that turn. */
export function exportTurn(): Promise<void> {
  return new Promise<void>((resolve) => {
    waiting.push(resolve);
    schedule();
  });
}
