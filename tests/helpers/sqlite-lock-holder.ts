// Another process holding a SQLite file's write lock (BEGIN IMMEDIATE), as a second server worker or a command does,
// until 200 ms after release() is called: the lock is still held when the code under test starts right after
// release(), however slow the machine, and is let go while it waits.
import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";

export interface LockHolder {
  /** Lets the other process commit 200 ms from now. */
  release(): void;
  /** Its exit code, once it has committed and closed the file. */
  exited: Promise<number | null>;
}

/** Starts the process and resolves once it holds the lock; `setup` is SQL it runs before taking it. */
export async function holdWriteLock(file: string, setup = ""): Promise<LockHolder> {
  const signal = `${file}.release-${process.pid}-${Date.now()}`;
  const holder = spawn(
    process.execPath,
    [
      "--input-type=module",
      "-e",
      `import { existsSync } from "node:fs";
       import LibsqlDatabase from "libsql";
       const other = new LibsqlDatabase(${JSON.stringify(file)});
       ${setup ? `other.exec(${JSON.stringify(setup)});` : ""}
       other.exec("BEGIN IMMEDIATE");
       console.log("locked");
       const poll = setInterval(() => {
         if (!existsSync(${JSON.stringify(signal)})) return;
         clearInterval(poll);
         setTimeout(() => { other.exec("COMMIT"); other.close(); }, 200);
       }, 5);`,
    ],
    { stdio: ["ignore", "pipe", "inherit"] },
  );
  const exited = new Promise<number | null>((resolve) => holder.once("exit", resolve));
  await new Promise((resolve, reject) => {
    holder.stdout.once("data", resolve);
    holder.once("exit", (code) => reject(new Error(`the lock holder exited with ${code} before it held the lock`)));
  });
  return { release: () => writeFileSync(signal, ""), exited };
}
