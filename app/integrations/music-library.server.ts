// Music beds for AI ads (docs/decisions/062-ads-worth-posting.md): audio files the operator puts in one folder
// (AD_MUSIC_DIR, default ./data/music). None ship with the product: a track's licence must allow it in ads, and
// that is the operator's call. A seller picks a track by its file name; a name is only ever looked up in the
// folder's own listing, so no path from a request reaches the file system.
import { readdir, stat } from "node:fs/promises";
import path from "node:path";

export const MUSIC_EXTENSIONS = [".mp3", ".m4a", ".aac", ".wav", ".ogg", ".flac"] as const;

export interface MusicLibrary {
  /** The folder, as configured (for the page's hint to the operator). */
  readonly dir: string;
  /** The tracks' file names, sorted; [] when the folder is missing or empty. */
  list(): Promise<string[]>;
  /** The absolute path of a listed track, or null when no such file is in the folder now. */
  pathOf(name: string): Promise<string | null>;
}

export function createMusicLibrary(dir: string): MusicLibrary {
  const root = path.resolve(dir);
  async function list(): Promise<string[]> {
    let names: string[];
    try {
      names = await readdir(root);
    } catch {
      return [];
    }
    const tracks: string[] = [];
    for (const name of names) {
      if (name.startsWith(".") || name.length > 200 || !MUSIC_EXTENSIONS.some((ext) => name.toLowerCase().endsWith(ext))) continue;
      try {
        const info = await stat(path.join(root, name));
        if (info.isFile() && info.size > 0) tracks.push(name);
      } catch {
        // gone between the listing and the check
      }
    }
    return tracks.sort((a, b) => a.localeCompare(b));
  }
  return {
    dir,
    list,
    async pathOf(name) {
      return (await list()).includes(name) ? path.join(root, name) : null;
    },
  };
}
