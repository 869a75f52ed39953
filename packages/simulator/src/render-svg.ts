import type { SimulationReport } from './simulation-report.js';

// Colour-blind-safe palette (Okabe–Ito), repeated past eight mailboxes.
const PALETTE = ['#0072B2', '#E69F00', '#009E73', '#CC79A7', '#56B4E9', '#D55E00', '#F0E442', '#999999'];
const PLOT_H = 240;
const LEFT = 56;
const TOP = 40;
const BOTTOM = 48;

/**
 * The report as an SVG picture, written as text (no browser, no canvas): sends
 * per UTC day stacked by mailbox, with the sum of the daily caps as a dashed line
 * and a legend. Same report, same bytes.
 */
export function renderSvg(report: SimulationReport): string {
  const days = report.days;
  const ids = report.input.mailboxes.map((m) => m.id);
  const barW = days.length > 90 ? 4 : days.length > 45 ? 8 : 14;
  const plotW = Math.max(days.length, 1) * barW;
  const legendRows = Math.ceil(ids.length / 4);
  const width = Math.max(LEFT + plotW + 24, 760);
  const height = TOP + PLOT_H + BOTTOM + legendRows * 18;
  const peak = Math.max(report.dailyCap, ...days.map((d) => d.total), 1);
  const top = niceCeil(peak * 1.05);
  const y = (n: number) => TOP + PLOT_H - (n / top) * PLOT_H;
  const out: string[] = [];
  out.push(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif" font-size="11">`,
  );
  out.push(`<title>Simulated sends per day by mailbox</title>`);
  out.push(`<rect width="${width}" height="${height}" fill="#ffffff"/>`);
  out.push(
    `<text x="${LEFT}" y="20" font-size="13" font-weight="bold">Sends per day (UTC) by mailbox: ${report.summary.sends} touches, last ${report.summary.lastTouchAt?.slice(0, 10) ?? 'none'}</text>`,
  );
  for (let k = 0; k <= 4; k++) {
    const v = (top / 4) * k;
    const yy = fix(y(v));
    out.push(`<line x1="${LEFT}" y1="${yy}" x2="${LEFT + plotW}" y2="${yy}" stroke="#e5e5e5"/>`);
    out.push(`<text x="${LEFT - 6}" y="${fix(y(v) + 4)}" text-anchor="end">${Math.round(v)}</text>`);
  }
  days.forEach((d, i) => {
    let acc = 0;
    const x = LEFT + i * barW;
    ids.forEach((id, m) => {
      const n = d.byMailbox[id] ?? 0;
      if (n === 0) return;
      out.push(
        `<rect x="${x}" y="${fix(y(acc + n))}" width="${barW - 1}" height="${fix(y(acc) - y(acc + n))}" fill="${PALETTE[m % PALETTE.length]}"><title>${d.date} ${escapeXml(id)}: ${n}</title></rect>`,
      );
      acc += n;
    });
    if (i % 7 === 0) {
      out.push(`<text x="${x}" y="${TOP + PLOT_H + 14}">${d.date.slice(5)}</text>`);
    }
  });
  const capY = fix(y(report.dailyCap));
  out.push(
    `<line x1="${LEFT}" y1="${capY}" x2="${LEFT + plotW}" y2="${capY}" stroke="#c00000" stroke-width="1.5" stroke-dasharray="6 3"/>`,
  );
  out.push(
    `<text x="${LEFT + plotW}" y="${fix(y(report.dailyCap) - 4)}" text-anchor="end" fill="#c00000">daily caps ${report.dailyCap}</text>`,
  );
  out.push(
    `<line x1="${LEFT}" y1="${TOP + PLOT_H}" x2="${LEFT + plotW}" y2="${TOP + PLOT_H}" stroke="#333"/>`,
  );
  ids.forEach((id, m) => {
    const lx = LEFT + (m % 4) * 180;
    const ly = TOP + PLOT_H + 30 + Math.floor(m / 4) * 18;
    out.push(`<rect x="${lx}" y="${ly - 9}" width="10" height="10" fill="${PALETTE[m % PALETTE.length]}"/>`);
    out.push(`<text x="${lx + 14}" y="${ly}">${escapeXml(id)}</text>`);
  });
  out.push('</svg>');
  return `${out.join('\n')}\n`;
}

function niceCeil(n: number): number {
  const step = 10 ** Math.floor(Math.log10(n));
  // Multiples whose quarters are round numbers too (the four grid lines).
  for (const k of [1, 1.2, 1.6, 2, 2.4, 3, 4, 5, 6, 8, 10]) if (k * step >= n) return k * step;
  return 10 * step;
}

function fix(n: number): string {
  return (Math.round(n * 10) / 10).toString();
}

function escapeXml(s: string): string {
  return s.replace(
    /[<>&"']/g,
    (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[c]!,
  );
}
