import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { formatPaise } from '../../../shared/money.ts';

export interface SalesPoint {
  /** Start of the bucket, UTC ISO. */
  start: string;
  orders: number;
  tickets: number;
  grossPaise: number;
}

/**
 * Tickets (bars) and rupees (line) per India-time day or hour, drawn by uPlot on a canvas. Imported only
 * by the console's lazy sales page, so uPlot never reaches a buyer's page. uPlot draws outside React:
 * the effect makes the chart, follows the container's width, and destroys it when the data changes.
 * A canvas says nothing to a screen reader; the page shows the same figures as text (`SalesSummary`).
 */
export function SalesChart({ points, bucket }: { points: SalesPoint[]; bucket: 'day' | 'hour' }) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = box.current;
    if (!element || points.length === 0) return;
    const step = bucket === 'day' ? 86_400 : 3_600;
    const data = withEmptyBuckets(points, step);
    const width = () => Math.max(280, element.clientWidth);
    const chart = new uPlot(
      {
        width: width(),
        height: 260,
        // Times in India, whatever the browser's zone.
        tzDate: (seconds) => uPlot.tzDate(new Date(seconds * 1000), 'Asia/Kolkata'),
        scales: {
          x: { time: true },
          tickets: { range: (_u, _min, max) => [0, Math.max(1, max)] },
          rupees: { range: (_u, _min, max) => [0, Math.max(1, max)] },
        },
        series: [
          { label: bucket === 'day' ? 'Day' : 'Hour' },
          {
            label: 'Tickets',
            scale: 'tickets',
            stroke: '#b45309',
            fill: 'rgba(217, 119, 6, 0.25)',
            paths: uPlot.paths.bars?.({ size: [0.6, 40] }),
            points: { show: false },
          },
          {
            label: 'Rupees',
            scale: 'rupees',
            stroke: '#7c3aed',
            width: 2,
            value: (_u, v) => (v == null ? '—' : formatPaise(Math.round(v * 100))),
          },
        ],
        axes: [
          {},
          { scale: 'tickets', label: 'Tickets' },
          {
            scale: 'rupees',
            side: 1,
            label: 'Rupees',
            grid: { show: false },
            values: (_u, values) => values.map((v) => formatPaise(Math.round(v * 100))),
            size: 80,
          },
        ],
      },
      data,
      element,
    );
    const resize = new ResizeObserver(() => chart.setSize({ width: width(), height: 260 }));
    resize.observe(element);
    return () => {
      resize.disconnect();
      chart.destroy();
    };
  }, [points, bucket]);
  // The canvas is decoration for sighted readers; the summary and table beside it carry the figures.
  return <div ref={box} aria-hidden="true" className="w-full overflow-hidden" data-testid="sales-chart" />;
}

/** Longest run of buckets drawn with its empty ones filled in (about four months of hours). */
const MAX_BUCKETS = 3_000;

/**
 * The buckets as uPlot's columns, with the days (or hours) without sales as zeros and one empty bucket
 * either side: a time axis spans the sales, and a single day's bar stands in the middle instead of at
 * the edge of a range uPlot would otherwise invent. India has no daylight saving, so every day is
 * 86,400 s. Loops over buckets (a few hundred), never over bookings.
 */
function withEmptyBuckets(points: SalesPoint[], step: number): uPlot.AlignedData {
  const bySecond = new Map(points.map((p) => [Date.parse(p.start) / 1000, p]));
  const seconds = [...bySecond.keys()];
  const first = Math.min(...seconds) - step;
  const last = Math.max(...seconds) + step;
  const xs =
    (last - first) / step > MAX_BUCKETS
      ? seconds
      : Array.from({ length: (last - first) / step + 1 }, (_, i) => first + i * step);
  return [
    xs,
    xs.map((x) => bySecond.get(x)?.tickets ?? 0),
    xs.map((x) => (bySecond.get(x)?.grossPaise ?? 0) / 100),
  ];
}
