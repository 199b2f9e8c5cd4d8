// For tests of reads the app makes outside Prisma (prepared statements on the SqlReader, docs/decisions/017, 076):
// the same read through a transaction's client, which has no SqlReader and so takes the read's Prisma path.
import { expect } from "vitest";
import { db, readerFor, type Db } from "~/db.server";
import { AppError } from "~/domain/errors";

/** `read` through a transaction's client (checked to have no SqlReader), i.e. through Prisma. */
export function throughPrisma<T>(read: (client: Db) => Promise<T>): Promise<T> {
  return db.$transaction(async (tx) => {
    expect(readerFor(tx as unknown as Db)).toBeNull();
    return read(tx as unknown as Db);
  });
}

/** What a read answers: its value, or the status and sentence of the AppError it throws (any other error is thrown). */
export async function outcome<T>(read: () => Promise<T>): Promise<{ value: T } | { status: number; message: string }> {
  try {
    return { value: await read() };
  } catch (error) {
    if (error instanceof AppError) return { status: error.status, message: error.message };
    throw error;
  }
}
