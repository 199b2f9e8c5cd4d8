// When a provider says something happened, at the precision it says it (docs/decisions/043). Paddle's
// occurred_at carries microseconds ("2023-08-22T07:13:34.599095Z") and two notifications about one
// subscription can be less than a millisecond apart, so deciding their order on a JavaScript Date
// (milliseconds) can put a withdrawn cancellation before the cancellation. An ExactTime is the instant
// in UTC with nine fractional digits, fixed width, so comparing two as strings compares the instants:
// "2026-11-26T08:00:00.123456000Z".

/** UTC, "YYYY-MM-DDTHH:MM:SS.fffffffffZ" (nanoseconds, fixed width): orders as text. */
export type ExactTime = string;

const ISO = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,}))?(?:([Zz])|([+-])(\d{2}):?(\d{2}))$/;

/**
 * An RFC 3339 timestamp as an ExactTime, or null when it is not one: a date and time with seconds,
 * an optional fraction (any number of digits; beyond nanoseconds they are dropped) and a zone (Z or
 * an offset; a time without a zone is refused, it names no instant).
 */
export function exactTime(value: string): ExactTime | null {
  const m = ISO.exec(value);
  if (!m) return null;
  const [, y, mo, d, h, mi, s, fraction = "", zulu, sign, offH, offM] = m;
  const fields = [y, mo, d, h, mi, s].map(Number);
  const [year, month, day, hour, minute, second] = fields;
  if (month < 1 || month > 12 || day < 1 || hour > 23 || minute > 59 || second > 59) return null;
  const lastDay = new Date(0);
  lastDay.setUTCFullYear(year, month, 0);
  if (day > lastDay.getUTCDate()) return null;
  const offsetMinutes = zulu ? 0 : (sign === "-" ? -1 : 1) * (Number(offH) * 60 + Number(offM));
  if (!zulu && (Number(offH) > 23 || Number(offM) > 59)) return null;
  const utc = new Date(0);
  utc.setUTCFullYear(year, month - 1, day);
  utc.setUTCHours(hour, minute - offsetMinutes, second, 0);
  const utcYear = utc.getUTCFullYear();
  if (utcYear < 0 || utcYear > 9999) return null;
  return `${utc.toISOString().slice(0, 19)}.${fraction.slice(0, 9).padEnd(9, "0")}Z`;
}

/** A Date (milliseconds) as an ExactTime: for times we only hold to the millisecond. */
export function exactTimeOf(date: Date): ExactTime {
  return `${date.toISOString().slice(0, 23)}000000Z`;
}

/** The ExactTime to the millisecond, for the DateTime columns kept beside it. */
export function toDate(time: ExactTime): Date {
  return new Date(`${time.slice(0, 23)}Z`);
}

/** Negative, zero or positive as a is before, at or after b. */
export function compareExact(a: ExactTime, b: ExactTime): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
