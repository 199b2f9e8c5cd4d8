// A small, dependency-free SVG line chart for values that change over time (credit balances now,
// product trends later). Accessible: the figures are also in a visually hidden table.
export interface Point {
  at: string;
  value: number;
}

export function LineChart({ points, label, height = 120, format = String }: { points: Point[]; label: string; height?: number; format?: (n: number) => string }) {
  if (points.length === 0) return <p className="chart-empty">No history yet.</p>;
  const width = 560;
  const pad = 24;
  const values = points.map((p) => p.value);
  const min = Math.min(0, ...values);
  const max = Math.max(1, ...values);
  const x = (i: number) => pad + (points.length === 1 ? (width - 2 * pad) / 2 : (i * (width - 2 * pad)) / (points.length - 1));
  const y = (v: number) => height - pad - ((v - min) / (max - min)) * (height - 2 * pad);
  const path = points.map((p, i) => `${i === 0 ? "M" : "L"}${x(i).toFixed(1)},${y(p.value).toFixed(1)}`).join(" ");
  return (
    <figure className="line-chart">
      <svg viewBox={`0 0 ${width} ${height}`} role="img" aria-label={label} preserveAspectRatio="none">
        <line x1={pad} x2={width - pad} y1={y(0)} y2={y(0)} stroke="#d0d0d0" />
        <path d={path} fill="none" stroke="#0b6e4f" strokeWidth="2" />
        {points.map((p, i) => (
          <circle key={i} cx={x(i)} cy={y(p.value)} r="3" fill="#0b6e4f">
            <title>{`${p.at}: ${format(p.value)}`}</title>
          </circle>
        ))}
        <text x={pad} y={12} fontSize="11" fill="#6d7175">
          {format(max)}
        </text>
      </svg>
      <table className="visually-hidden">
        <caption>{label}</caption>
        <tbody>
          {points.map((p, i) => (
            <tr key={i}>
              <td>{p.at}</td>
              <td>{format(p.value)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </figure>
  );
}
