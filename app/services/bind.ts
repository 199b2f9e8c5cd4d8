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

/**
 * A service built on first use instead of at import: importing the composition root (every route does)
 * then costs nothing until a request needs the service. The object behaves as the built one; its
 * methods are bound to it, so classes with private fields work through it too.
 */
export function lazy<T extends object>(build: () => T): T {
  let built: T | undefined;
  const target = () => (built ??= build());
  return new Proxy({} as T, {
    get(_, prop) {
      const value = Reflect.get(target(), prop);
      return typeof value === "function" ? value.bind(target()) : value;
    },
    has: (_, prop) => Reflect.has(target(), prop),
    ownKeys: () => Reflect.ownKeys(target()),
    getOwnPropertyDescriptor(_, prop) {
      const descriptor = Reflect.getOwnPropertyDescriptor(target(), prop);
      return descriptor ? { ...descriptor, configurable: true } : undefined;
    },
  });
}

/**
 * bindDb for modules of plain functions that take a dependencies object first (the database in it, then
 * ports): a folder service's composer (app/services/competitors.server.ts) binds its resolved dependencies
 * once, and each module's functions stay exported, small and testable on their own.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type DepsFn<D> = (deps: D, ...args: any[]) => unknown;
export type BoundToDeps<D, T extends Record<string, DepsFn<D>>> = {
  [K in keyof T]: T[K] extends (deps: D, ...args: infer A) => infer R ? (...args: A) => R : never;
};

export function bindDeps<D, T extends Record<string, DepsFn<D>>>(deps: D, fns: T): BoundToDeps<D, T> {
  const out: Record<string, unknown> = {};
  for (const [name, fn] of Object.entries(fns)) out[name] = (...args: unknown[]) => fn(deps, ...args);
  return out as BoundToDeps<D, T>;
}
