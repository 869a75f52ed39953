import type { ChartConfiguration } from 'chart.js/auto';
import Chart from 'chart.js/auto';
import { useEffect, useRef } from 'preact/hooks';

/**
 * A Chart.js chart on a canvas. The canvas is an image to assistive technology,
 * labelled with what it shows; the numbers themselves are in the table beside it.
 */
export function ChartView(props: { config: ChartConfiguration; label: string; height?: number }) {
  const canvas = useRef<HTMLCanvasElement>(null);
  useEffect(() => {
    if (!canvas.current) return;
    const chart = new Chart(canvas.current, {
      ...props.config,
      options: { responsive: true, maintainAspectRatio: false, animation: false, ...props.config.options },
    });
    return () => chart.destroy();
  }, [props.config]);
  return (
    <div class="chart" style={{ height: `${props.height ?? 280}px` }}>
      <canvas ref={canvas} role="img" aria-label={props.label} />
    </div>
  );
}

/** Colours with enough contrast on white, told apart by the legend's words too. */
export const COLOURS = {
  sent: '#1f5fa8',
  replied: '#1b7f3b',
  positive: '#0b5d2a',
  bounced: '#b3261e',
  unsubscribed: '#8a4b00',
  exhausted: '#5b5b66',
  complaint: '#7b1fa2',
  threshold: '#b3261e',
};
