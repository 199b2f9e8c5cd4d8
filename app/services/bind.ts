// Services take their dependencies explicitly (the database first) so tests can pass real ones.
// bindDb partially applies the database once, in the composition root (app/services/index.server.ts).
import type { Db } from "~/db.server";

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type DbFn = (db: Db, ...args: any[]) => unknown;
export type BoundToDb<T extends Record<string, DbFn>> = {
  [K in keyof T]: T[K] extends (db: Db, ...args: infer A) => infer R ? (...args: A) => R : never;
};

export function bindDb<T extends Record<string, DbFn>>(db: Db, fns: T): BoundToDb<T> {
  const out: Record<string, unknown> = {};
  for (const [name, fn] of Object.entries(fns)) out[name] = (...args: unknown[]) => fn(db, ...args);
  return out as BoundToDb<T>;
}
