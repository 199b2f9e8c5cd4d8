// What the operator CLIs (npm run jobs / outbox / drops:publish) share: reading `--name value` options, the
// UsageError each script turns into its usage text and exit code, and plain fixed-width tables.

/** A mistake in the command line: the script prints the message with its usage. */
export class UsageError extends Error {}

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
