import { LINKEDIN_ACTION_NAME, LINKEDIN_ACTIONS } from './simulated-linkedin.js';
import type { SimulationReport } from './simulation-report.js';

// Colour-blind-safe palette (Okabe–Ito), repeated past eight series.
const PALETTE = ['#0072B2', '#E69F00', '#009E73', '#CC79A7', '#56B4E9', '#D55E00', '#F0E442', '#999999'];
const PLOT_H = 240;
const LEFT = 56;
const TOP = 40;
const BOTTOM = 48;
/** Room above a panel for its heading. */
const HEAD = 40;

/** One stacked-bar panel: a series per sending identity, its day counts, and the cap lines. */
type Panel = {
  heading: string;
  /** The series in stacking order, with their colours. */
  series: { id: string; colour: string }[];
  counts: (day: number, id: string) => number;
  caps: { label: string; value: number }[];
};

/**
 * The report as an SVG picture, written as text (no browser, no canvas): sends
 * per UTC day stacked by mailbox, with the sum of the daily caps as a dashed line
 * and a legend; when the sequence has LinkedIn actions, a second panel below on
 * the same days: LinkedIn actions stacked by account, with the accounts' summed
 * daily cap of each action the sequence takes as a dashed line of its own (one
 * line per value, naming every action at it). Same report, same bytes.
 */
export function renderSvg(report: SimulationReport): string {
  const days = report.days;
  const barW = days.length > 90 ? 4 : days.length > 45 ? 8 : 14;
  const plotW = Math.max(days.length, 1) * barW;
  const width = Math.max(LEFT + plotW + 24, 760);
  const mailboxIds = report.input.mailboxes.map((m) => m.id);
  const panels: Panel[] = [
    {
      heading: `Sends per day (UTC) by mailbox: ${report.summary.sends} touches, last ${report.summary.lastTouchAt?.slice(0, 10) ?? 'none'}`,
      series: mailboxIds.map((id, m) => ({ id, colour: PALETTE[m % PALETTE.length]! })),
      counts: (d, id) => days[d]!.byMailbox[id] ?? 0,
      caps: [{ label: `daily caps ${report.dailyCap}`, value: report.dailyCap }],
    },
  ];
  const linkedin = report.linkedin;
  if (linkedin) {
    const total = linkedin.accounts.reduce(
      (n, a) => n + LINKEDIN_ACTIONS.reduce((k, action) => k + a.sends[action], 0),
      0,
    );
    panels.push({
      heading: `LinkedIn actions per day (UTC) by account: ${total} actions`,
      series: linkedin.accounts.map((a, i) => ({
        id: a.id,
        colour: PALETTE[(mailboxIds.length + i) % PALETTE.length]!,
      })),
      counts: (d, id) => days[d]!.byLinkedInAccount?.[id] ?? 0,
      caps: linkedin.capLines.map((line) => ({
        label: `LinkedIn ${line.actions.map((a) => LINKEDIN_ACTION_NAME[a]).join(', ')} caps ${line.value}`,
        value: line.value,
      })),
    });
  }
  const heights = panels.map((p) => HEAD + PLOT_H + BOTTOM + Math.ceil(p.series.length / 4) * 18);
  const height = TOP - HEAD + heights.reduce((a, b) => a + b, 0);
  const out: string[] = [];
  out.push(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif" font-size="11">`,
  );
  out.push(
    `<title>Simulated sends per day by mailbox${linkedin ? ' and LinkedIn actions by account' : ''}</title>`,
  );
  out.push(`<rect width="${width}" height="${height}" fill="#ffffff"/>`);
  let top = TOP;
  panels.forEach((panel, i) => {
    drawPanel(out, panel, days, top, barW, plotW);
    top += heights[i]!;
  });
  out.push('</svg>');
  return `${out.join('\n')}\n`;
}

/** Draws one panel whose plot starts at `plotTop`: heading, grid, stacked bars, cap lines, axis, legend. */
function drawPanel(
  out: string[],
  panel: Panel,
  days: SimulationReport['days'],
  plotTop: number,
  barW: number,
  plotW: number,
): void {
  const sums = days.map((_, d) => panel.series.reduce((n, s) => n + panel.counts(d, s.id), 0));
  const peak = Math.max(...panel.caps.map((c) => c.value), ...sums, 1);
  const top = niceCeil(peak * 1.05);
  const y = (n: number) => plotTop + PLOT_H - (n / top) * PLOT_H;
  out.push(
    `<text x="${LEFT}" y="${plotTop - 20}" font-size="13" font-weight="bold">${escapeXml(panel.heading)}</text>`,
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
    for (const s of panel.series) {
      const n = panel.counts(i, s.id);
      if (n === 0) continue;
      out.push(
        `<rect x="${x}" y="${fix(y(acc + n))}" width="${barW - 1}" height="${fix(y(acc) - y(acc + n))}" fill="${s.colour}"><title>${d.date} ${escapeXml(s.id)}: ${n}</title></rect>`,
      );
      acc += n;
    }
    if (i % 7 === 0) {
      out.push(`<text x="${x}" y="${plotTop + PLOT_H + 14}">${d.date.slice(5)}</text>`);
    }
  });
  for (const cap of panel.caps) {
    const capY = fix(y(cap.value));
    out.push(
      `<line x1="${LEFT}" y1="${capY}" x2="${LEFT + plotW}" y2="${capY}" stroke="#c00000" stroke-width="1.5" stroke-dasharray="6 3"/>`,
    );
    out.push(
      `<text x="${LEFT + plotW}" y="${fix(y(cap.value) - 4)}" text-anchor="end" fill="#c00000">${escapeXml(cap.label)}</text>`,
    );
  }
  out.push(
    `<line x1="${LEFT}" y1="${plotTop + PLOT_H}" x2="${LEFT + plotW}" y2="${plotTop + PLOT_H}" stroke="#333"/>`,
  );
  panel.series.forEach((s, m) => {
    const lx = LEFT + (m % 4) * 180;
    const ly = plotTop + PLOT_H + 30 + Math.floor(m / 4) * 18;
    out.push(`<rect x="${lx}" y="${ly - 9}" width="10" height="10" fill="${s.colour}"/>`);
    out.push(`<text x="${lx + 14}" y="${ly}">${escapeXml(s.id)}</text>`);
  });
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
