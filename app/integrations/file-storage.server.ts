// Files we keep on disk under one folder (fetched product images; docs/decisions/028). Names are chosen by
// the caller from a fixed pattern (a content hash and an extension), never from user input; writes go to a
// temporary file first and are renamed into place, so a reader never sees half a file. An S3-compatible
// bucket would implement the same interface when one machine's disk is outgrown.
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import path from "node:path";

export interface FileStorage {
  /** Writes the file (replacing one of the same name). */
  put(name: string, bytes: Uint8Array): Promise<void>;
  /** The file's bytes, or null when there is no such file. */
  get(name: string): Promise<Buffer | null>;
  /** Deletes the file; returns the bytes it held, or null when there was no such file (already gone is fine). */
  remove(name: string): Promise<number | null>;
  /** Every file (only names a caller could have written: other entries, such as folders, are left out). */
  list(): Promise<StoredFileEntry[]>;
}

export interface StoredFileEntry {
  name: string;
  bytes: number;
  /** When it was last written (put replaces the file, so a rewrite is a fresh time). */
  modifiedAt: Date;
}

const isMissing = (error: unknown) => (error as NodeJS.ErrnoException).code === "ENOENT";

const SAFE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,200}$/;
let writes = 0;

export function createFileStorage(root: string): FileStorage {
  const dir = path.resolve(root);
  const fileOf = (name: string) => {
    if (!SAFE_NAME.test(name) || name.includes("..")) throw new Error(`"${name}" is not a storage file name`);
    return path.join(dir, name);
  };
  return {
    async put(name, bytes) {
      const file = fileOf(name);
      await mkdir(dir, { recursive: true });
      // Unique per write: two writes of the same name at once (two URLs with the same bytes) each rename their own.
      const temporary = `${file}.${process.pid}.${Date.now()}.${++writes}.tmp`;
      await writeFile(temporary, bytes);
      await rename(temporary, file);
    },
    async get(name) {
      try {
        return await readFile(fileOf(name));
      } catch (error) {
        if (isMissing(error)) return null;
        throw error;
      }
    },
    async remove(name) {
      const file = fileOf(name);
      let bytes: number;
      try {
        bytes = (await stat(file)).size;
      } catch (error) {
        if (isMissing(error)) return null;
        throw error;
      }
      await rm(file, { force: true });
      return bytes;
    },
    async list() {
      let entries;
      try {
        entries = await readdir(dir, { withFileTypes: true });
      } catch (error) {
        if (isMissing(error)) return [];
        throw error;
      }
      const files: StoredFileEntry[] = [];
      for (const entry of entries) {
        if (!entry.isFile() || !SAFE_NAME.test(entry.name) || entry.name.includes("..")) continue;
        try {
          const info = await stat(path.join(dir, entry.name));
          files.push({ name: entry.name, bytes: info.size, modifiedAt: info.mtime });
        } catch (error) {
          if (!isMissing(error)) throw error; // removed meanwhile (another process's purge): not listed
        }
      }
      return files;
    },
  };
}
