// Daily trends of a product, one small panel per series (orders and views live on very different
// scales, so they never share an axis). Plain SVG, no chart library: a few hundred points need none.
// Each day has a hover title, and the figures are also in a visually hidden table for screen readers.
// Those two per-day layers (five elements a day: 900 for two 90-day series, half a product page's elements) are
// written as markup text, not React elements: the same HTML for a fraction of the server's render time
// (`npm run bench -- load`, decision 039). The text is escaped, and the same on the server and in the browser.
import { BlockStack, InlineStack, Text } from "@shopify/polaris";
import { escapeHtml } from "~/domain/html-escape";
import { formatCompact, formatCount } from "~/domain/products/insights";

export interface TrendSeries {
  label: string;
  values: number[];
  color: string;
  format?: (n: number) => string;
  /** The line beside the title; by default the series' total ("1,234 over 30 days"), which a level (stores selling) replaces. */
  summary?: (values: number[]) => string;
}

const DAY_MS = 86_400_000;
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/** "Aug 28": what Intl's en-US short month and day give in UTC, without a formatter call a day. */
export function dayLabel(day: Date): string {
  return `${MONTHS[day.getUTCMonth()]} ${day.getUTCDate()}`;
}

function dayAt(startDay: string, i: number): Date {
  return new Date(Date.parse(`${startDay}T00:00:00Z`) + i * DAY_MS);
}

/** The number as React writes an SVG attribute's number (String), for the markup written as text. */
const attr = (n: number) => String(n);

/** The per-day hover areas: a transparent rect a day with its title. */
function hoverAreasHtml(values: number[], startDay: string, format: (n: number) => string, x: (i: number) => number, slot: number, innerH: number) {
  let html = "";
  for (let i = 0; i < values.length; i++) {
    const title = escapeHtml(`${dayLabel(dayAt(startDay, i))}: ${format(values[i])}`);
    html += `<rect x="${attr(x(i) - slot / 2)}" y="${attr(PAD.top)}" width="${attr(slot)}" height="${attr(innerH)}" fill="transparent"><title>${title}</title></rect>`;
  }
  return html;
}

/** The per-day rows of the visually hidden table. */
function tableRowsHtml(values: number[], startDay: string, format: (n: number) => string) {
  let html = "";
  for (let i = 0; i < values.length; i++) {
    html += `<tr><th scope="row">${dayAt(startDay, i).toISOString().slice(0, 10)}</th><td>${escapeHtml(format(values[i]))}</td></tr>`;
  }
  return html;
}

/** A round top for the axis: 0, 1, 2, 5 x 10^n. */
export function niceMax(max: number): number {
  if (max <= 0) return 1;
  const power = 10 ** Math.floor(Math.log10(max));
  for (const step of [1, 2, 5, 10]) if (step * power >= max) return step * power;
  return 10 * power;
}

const W = 640;
const H = 150;
const PAD = { left: 44, right: 10, top: 10, bottom: 22 };

function Panel({ startDay, series }: { startDay: string; series: TrendSeries }) {
  const { values, color, label } = series;
  const format = series.format ?? formatCount;
  const n = values.length;
  const top = niceMax(Math.max(0, ...values));
  const innerW = W - PAD.left - PAD.right;
  const innerH = H - PAD.top - PAD.bottom;
  const x = (i: number) => PAD.left + (n <= 1 ? innerW / 2 : (i * innerW) / (n - 1));
  const y = (v: number) => PAD.top + innerH - (v / top) * innerH;
  const line = values.map((v, i) => `${i === 0 ? "M" : "L"}${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(" ");
  const area = `${line} L${x(n - 1).toFixed(1)},${y(0).toFixed(1)} L${x(0).toFixed(1)},${y(0).toFixed(1)} Z`;
  const ticks = n > 1 ? [0, Math.floor((n - 1) / 2), n - 1] : [0];
  const total = values.reduce((a, b) => a + b, 0);
  const slot = n > 1 ? innerW / (n - 1) : innerW;

  return (
    <figure style={{ margin: 0 }}>
      <InlineStack align="space-between" blockAlign="baseline">
        <Text as="h3" variant="headingSm">
          {label}
        </Text>
        <Text as="span" variant="bodySm" tone="subdued">
          {series.summary ? series.summary(values) : `${format(total)} over ${n} ${n === 1 ? "day" : "days"}`}
        </Text>
      </InlineStack>
      <svg viewBox={`0 0 ${W} ${H}`} width="100%" role="img" aria-label={`${label}, daily, from ${dayLabel(dayAt(startDay, 0))}`}>
        {[0, 0.5, 1].map((f) => (
          <g key={f}>
            <line x1={PAD.left} x2={W - PAD.right} y1={y(top * f)} y2={y(top * f)} stroke="#e3e3e3" />
            <text x={PAD.left - 6} y={y(top * f) + 4} fontSize="11" fill="#616161" textAnchor="end">
              {formatCompact(top * f)}
            </text>
          </g>
        ))}
        {n > 0 ? (
          <>
            <path d={area} fill={color} opacity={0.12} />
            <path d={line} fill="none" stroke={color} strokeWidth={2} strokeLinejoin="round" />
          </>
        ) : null}
        {ticks.map((i) => (
          <text key={i} x={x(i)} y={H - 6} fontSize="11" fill="#616161" textAnchor={i === 0 ? "start" : i === n - 1 ? "end" : "middle"}>
            {dayLabel(dayAt(startDay, i))}
          </text>
        ))}
        <g dangerouslySetInnerHTML={{ __html: hoverAreasHtml(values, startDay, format, x, slot, innerH) }} />
      </svg>
      <table className="visually-hidden">
        {/* One value a day: the unit said once, whether or not the label already says it ("Orders per day"). */}
        <caption>{/\bper day$/i.test(label.trim()) ? label : `${label}, per day`}</caption>
        <tbody dangerouslySetInnerHTML={{ __html: tableRowsHtml(values, startDay, format) }} />
      </table>
    </figure>
  );
}

export function TrendChart({ startDay, series }: { startDay: string; series: TrendSeries[] }) {
  if (series.every((s) => s.values.length === 0)) {
    return (
      <Text as="p" tone="subdued">
        No daily history yet.
      </Text>
    );
  }
  return (
    <BlockStack gap="400">
      {series.map((s) => (
        <Panel key={s.label} startDay={startDay} series={s} />
      ))}
    </BlockStack>
  );
}
