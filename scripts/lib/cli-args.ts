// What the operator CLIs (npm run jobs / outbox / images / operator / drops:publish) share: reading `--name value`
// options, the UsageError each script turns into its usage text and exit code, running main to an exit code,
// and plain fixed-width tables.
import { isAppError } from "~/domain/errors";

/** A mistake in the command line: the script prints the message with its usage. */
export class UsageError extends Error {}

/**
 * Runs a CLI's `main` and exits with its code. A UsageError prints its message and the usage text and exits 2;
 * any other error prints its sentence (an AppError's message) and exits 1. `close` (the database) runs first.
 */
export function runCli(main: () => Promise<number>, options: { usage?: string; close: () => Promise<unknown> }): void {
  main()
    .then(async (code) => {
      await options.close();
      process.exit(code);
    })
    .catch(async (error: unknown) => {
      if (error instanceof UsageError) console.error(options.usage ? `${error.message}\n${options.usage}` : error.message);
      else console.error(isAppError(error) ? error.message : error instanceof Error ? error.message : error);
      await options.close();
      process.exit(error instanceof UsageError ? 2 : 1);
    });
}

/** The value after `name`, undefined when the option is absent; a usage error when the value is missing. */
export function option(args: string[], name: string): string | undefined {
  const i = args.indexOf(name);
  if (i === -1) return undefined;
  const value = args[i + 1];
  if (value === undefined || value.startsWith("--")) throw new UsageError(`${name} needs a value.`);
  return value;
}

export function oneOf<T extends string>(value: string | undefined, allowed: readonly T[], name: string): T | undefined {
  if (value === undefined) return undefined;
  if (!(allowed as readonly string[]).includes(value)) throw new UsageError(`${name} is one of ${allowed.join(", ")}, not "${value}".`);
  return value as T;
}

export function whole(value: string | undefined, name: string): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value)) throw new UsageError(`${name} must be a whole number, not "${value}".`);
  return Number(value);
}

/** `text` on one line, cut to `max` characters with an ellipsis. */
export function oneLine(text: string | null, max: number): string {
  const flat = (text ?? "").replace(/\s+/g, " ").trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/** Columns padded to their widest cell, two spaces apart; the last column is not padded. */
export function table(header: string[], rows: string[][]): string {
  const widths = header.map((h, c) => Math.max(h.length, ...rows.map((row) => row[c].length)));
  const line = (cells: string[]) =>
    cells
      .map((cell, c) => (c === cells.length - 1 ? cell : cell.padEnd(widths[c])))
      .join("  ")
      .trimEnd();
  return [line(header), ...rows.map(line)].join("\n");
}
