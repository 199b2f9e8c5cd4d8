// The file-storage port and its disk adapter (docs/decisions/045): fetched product images (decision 028)
// and the AI ads' videos and previews (decision 019) are stored, read and removed only through it, so
// that keeping them in an S3-compatible bucket means writing one adapter with this interface.
//
// The interface is an object store's: files are named by keys, never paths ("12-3-ab12cd34.mp4",
// "previews/12-7-ab12cd34.mp4"), chosen by the caller from a fixed pattern and never from user input; a
// file is written whole (a reader never sees half of one), read whole (small files) or streamed from a
// byte range (videos, for HTTP Range), and listed by key prefix. Its content type follows from its key's
// extension, as a bucket would record it at put.
//
// The disk adapter keeps the files under one folder, a key's "/" being a subfolder; writes go to a
// temporary file beside the target, renamed into place. The bucket adapter is file-storage-s3.server.ts
// (decision 097). A store that fails (a disk that refuses writes, a bucket that cannot be reached) throws
// FileStorageError, whose message names what to fix; a caller's own stream failing throws the stream's error.
import { createWriteStream } from "node:fs";
import { copyFile, mkdir, open, readdir, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";

/** What put stores: bytes in memory, a stream (a large file need not be held), or a local file to copy. */
export type PutBody = Uint8Array | Readable | { path: string };

export interface StoredFileInfo {
  bytes: number;
  /** When it was last written (put replaces the file, so a rewrite is a fresh time). */
  modifiedAt: Date;
  contentType: string;
}

export interface StoredFileEntry {
  /** Its key. */
  name: string;
  bytes: number;
  modifiedAt: Date;
}

/** An inclusive byte range, as HTTP's Range names it; the caller checks it lies within the file. */
export interface ByteRange {
  start: number;
  end: number;
}

export interface OpenedFile extends StoredFileInfo {
  /** The file's bytes (only the range asked for); the reader must consume or destroy it. */
  body: Readable;
}

export interface FileStorage {
  /** Writes the file under `key`, replacing one of the same key; readers see the old file or the new, whole. */
  put(key: string, body: PutBody): Promise<void>;
  /** A small file's bytes, or null when there is no such file. */
  get(key: string): Promise<Buffer | null>;
  /** A stream of the file (or of `range` of it) with its size and type, or null when there is no such file. */
  open(key: string, options?: { range?: ByteRange }): Promise<OpenedFile | null>;
  /** The file's size, time and type without reading it, or null when there is no such file. */
  stat(key: string): Promise<StoredFileInfo | null>;
  /** Deletes the file; returns the bytes it held, or null when there was no such file (already gone is fine). */
  remove(key: string): Promise<number | null>;
  /** Every file whose key starts with `prefix` (all by default); only keys a caller could have written. */
  list(prefix?: string): Promise<StoredFileEntry[]>;
}

/** The store itself failed (not the caller): the message is a sentence for the operator, naming what to look at. */
export class FileStorageError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "FileStorageError";
  }
}

const CONTENT_TYPES: Record<string, string> = {
  ".mp4": "video/mp4",
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".jpeg": "image/jpeg",
  ".webp": "image/webp",
  ".gif": "image/gif",
};

/** The content type a key's extension stands for (application/octet-stream for others). */
export function contentTypeOf(key: string): string {
  return CONTENT_TYPES[path.extname(key).toLowerCase()] ?? "application/octet-stream";
}

const SEGMENT = /^[A-Za-z0-9][A-Za-z0-9._-]{0,200}$/;

/** A key: up to 8 "/"-separated segments of letters, digits, ".", "_" and "-", none starting with a dot. */
export function isStorageKey(key: string): boolean {
  const segments = key.split("/");
  return key.length <= 1024 && segments.length <= 8 && segments.every((s) => SEGMENT.test(s) && !s.includes(".."));
}

const isMissing = (error: unknown) => (error as NodeJS.ErrnoException).code === "ENOENT";

/** A failure of the folder itself (permissions, a full or read-only disk) as the operator reads it. */
function diskFailure(what: string, dir: string, error: unknown): FileStorageError {
  const code = (error as NodeJS.ErrnoException).code ?? "error";
  return new FileStorageError(`${what}: the folder ${dir} refused it (${code}): check VIDEO_STORAGE_DIR and the disk.`, { cause: error });
}

let writes = 0;

export function createFileStorage(root: string): FileStorage {
  const dir = path.resolve(root);
  const fileOf = (key: string) => {
    if (!isStorageKey(key)) throw new Error(`"${key}" is not a storage key`);
    return path.join(dir, ...key.split("/"));
  };

  async function infoOf(file: string): Promise<{ size: number; mtime: Date } | null> {
    try {
      return await stat(file);
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
  }

  /** Every file below `folder` (its key prefix `keyPrefix`), walked depth first. */
  async function walk(folder: string, keyPrefix: string, into: StoredFileEntry[]): Promise<void> {
    let entries;
    try {
      entries = await readdir(folder, { withFileTypes: true });
    } catch (error) {
      if (isMissing(error)) return; // removed meanwhile, or never written
      throw error;
    }
    for (const entry of entries) {
      const key = `${keyPrefix}${entry.name}`;
      if (entry.isDirectory() && SEGMENT.test(entry.name)) await walk(path.join(folder, entry.name), `${key}/`, into);
      if (!entry.isFile() || !isStorageKey(key)) continue;
      const info = await infoOf(path.join(folder, entry.name)); // null: removed meanwhile (another process's purge)
      if (info) into.push({ name: key, bytes: info.size, modifiedAt: info.mtime });
    }
  }

  return {
    async put(key, body) {
      const file = fileOf(key);
      await mkdir(path.dirname(file), { recursive: true }).catch((error: unknown) => {
        throw diskFailure(`Storing ${key} failed`, dir, error);
      });
      // Unique per write: two writes of the same key at once (two URLs with the same bytes) each rename their own.
      const temporary = `${file}.${process.pid}.${Date.now()}.${++writes}.tmp`;
      try {
        if (body instanceof Uint8Array) await writeFile(temporary, body);
        else if (body instanceof Readable) await pipeline(body, createWriteStream(temporary));
        else await copyFile(body.path, temporary);
        await rename(temporary, file);
      } catch (error) {
        await rm(temporary, { force: true }).catch(() => undefined);
        if (body instanceof Readable && body.errored) throw body.errored;
        throw (error as NodeJS.ErrnoException).code ? diskFailure(`Storing ${key} failed`, dir, error) : error;
      }
    },
    async get(key) {
      try {
        return await readFile(fileOf(key));
      } catch (error) {
        if (isMissing(error)) return null;
        throw error;
      }
    },
    async open(key, options = {}) {
      let handle;
      try {
        // Opened first, then measured: a file removed meanwhile is either whole or missing, never cut short.
        handle = await open(fileOf(key), "r");
      } catch (error) {
        if (isMissing(error)) return null;
        throw error;
      }
      const info = await handle.stat().catch(async (error: unknown) => {
        await handle.close();
        throw error;
      });
      const body = handle.createReadStream(options.range ?? {});
      return { bytes: info.size, modifiedAt: info.mtime, contentType: contentTypeOf(key), body };
    },
    async stat(key) {
      const info = await infoOf(fileOf(key));
      return info && { bytes: info.size, modifiedAt: info.mtime, contentType: contentTypeOf(key) };
    },
    async remove(key) {
      const file = fileOf(key);
      const info = await infoOf(file);
      if (!info) return null;
      await rm(file, { force: true });
      return info.size;
    },
    async list(prefix = "") {
      // Walk only the folder the prefix names (a bucket lists by prefix the same way), then match the rest.
      const folderKey = prefix.includes("/") ? prefix.slice(0, prefix.lastIndexOf("/")) : "";
      if (folderKey !== "" && !isStorageKey(folderKey)) return [];
      const files: StoredFileEntry[] = [];
      await walk(folderKey ? fileOf(folderKey) : dir, folderKey ? `${folderKey}/` : "", files);
      return files.filter((f) => f.name.startsWith(prefix));
    },
  };
}
