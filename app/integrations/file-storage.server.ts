// Files we keep on disk under one folder (fetched product images; docs/decisions/028). Names are chosen by
// the caller from a fixed pattern (a content hash and an extension), never from user input; writes go to a
// temporary file first and are renamed into place, so a reader never sees half a file. An S3-compatible
// bucket would implement the same interface when one machine's disk is outgrown.
import { mkdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import path from "node:path";

export interface FileStorage {
  /** Writes the file (replacing one of the same name). */
  put(name: string, bytes: Uint8Array): Promise<void>;
  /** The file's bytes, or null when there is no such file. */
  get(name: string): Promise<Buffer | null>;
  remove(name: string): Promise<void>;
}

const SAFE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,200}$/;

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
      const temporary = `${file}.${process.pid}.${Date.now()}.tmp`;
      await writeFile(temporary, bytes);
      await rename(temporary, file);
    },
    async get(name) {
      try {
        return await readFile(fileOf(name));
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
        throw error;
      }
    },
    async remove(name) {
      await rm(fileOf(name), { force: true });
    },
  };
}
