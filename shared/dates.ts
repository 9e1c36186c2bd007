import { TZDate } from '@date-fns/tz';
import { format } from 'date-fns/format';

/** Everything a person reads is in India time, whatever the browser's or server's zone. */
export const INDIA_TIME_ZONE = 'Asia/Kolkata';

function inIndia(instant: string | Date): TZDate {
  return new TZDate(new Date(instant).getTime(), INDIA_TIME_ZONE);
}

/** Formats an instant in India time with a date-fns pattern (the spec's §9 patterns). */
export function formatInIndia(instant: string | Date, pattern: string): string {
  return format(inIndia(instant), pattern);
}

/** 'dd MMM yyyy', e.g. '05 Dec 2026'. */
export const formatLongDate = (instant: string | Date) => formatInIndia(instant, 'dd MMM yyyy');
/** 'h:mm a', e.g. '7:30 PM'. */
export const formatTime = (instant: string | Date) => formatInIndia(instant, 'h:mm a');
/** 'dd MMM yyyy, h:mm a', e.g. '05 Dec 2026, 7:30 PM' (the console's lists and booking page). */
export const formatDateTime = (instant: string | Date) => formatInIndia(instant, 'dd MMM yyyy, h:mm a');
/** Event card date: short weekday, day, short month, e.g. 'Sat, 5 Dec'. */
export const formatCardDate = (instant: string | Date) => formatInIndia(instant, 'EEE, d MMM');
/** 'dd MMM yyyy | h:mm a - h:mm a' (ticket selection header). */
export function formatDateWithTimeRange(start: string | Date, end: string | Date): string {
  return `${formatLongDate(start)} | ${formatTime(start)} - ${formatTime(end)}`;
}
/** My Bookings date: day, long English month, year, e.g. '5 December 2026'. */
export const formatBookingDate = (instant: string | Date) => formatInIndia(instant, 'd MMMM yyyy');
/** Date chip parts: day number, weekday 'EEE', month 'MMM' upper-cased. */
export function dateChipParts(instant: string | Date) {
  return {
    day: formatInIndia(instant, 'd'),
    weekday: formatInIndia(instant, 'EEE'),
    month: formatInIndia(instant, 'MMM').toUpperCase(),
  };
}
/** The India calendar day of an instant, 'yyyy-MM-dd', for matching dates by calendar day. */
export const indiaCalendarDay = (instant: string | Date) => formatInIndia(instant, 'yyyy-MM-dd');

/**
 * Duration between start and end as hours and minutes with singular or plural words
 * ('2 hours 30 minutes', '1 hour', '45 minutes'); 'Duration not available' when it cannot be computed.
 */
export function formatDuration(start: string | null | undefined, end: string | null | undefined): string {
  const unavailable = 'Duration not available';
  if (!start || !end) return unavailable;
  const ms = new Date(end).getTime() - new Date(start).getTime();
  if (!Number.isFinite(ms) || ms <= 0) return unavailable;
  const totalMinutes = Math.round(ms / 60_000);
  const hours = Math.floor(totalMinutes / 60);
  const minutes = totalMinutes % 60;
  const parts: string[] = [];
  if (hours > 0) parts.push(`${hours} ${hours === 1 ? 'hour' : 'hours'}`);
  if (minutes > 0) parts.push(`${minutes} ${minutes === 1 ? 'minute' : 'minutes'}`);
  return parts.join(' ');
}

/**
 * A ticket type's sale window for the editor's summary line (issue 35): 'sale 02 Dec 2026, 5:30 AM –
 * 14 Dec 2026, 12:00 PM', 'sale until …', 'sale from …', or 'no sale window' when open on both sides.
 */
export function formatSaleWindow(opensAt: string | null, closesAt: string | null): string {
  if (opensAt && closesAt) return `sale ${formatDateTime(opensAt)} – ${formatDateTime(closesAt)}`;
  if (closesAt) return `sale until ${formatDateTime(closesAt)}`;
  if (opensAt) return `sale from ${formatDateTime(opensAt)}`;
  return 'no sale window';
}

/** An event's shows (its slots) as the buyer's event page summarises them when there are several. */
export interface ShowsSummary {
  /** '12–13 Dec 2026 · 3 shows', '30 Nov – 2 Dec 2026 · 4 shows', 'Sat, 12 Dec 2026 · 2 shows'. */
  headline: string;
  /** One line per India calendar day: 'Sat, 12 Dec' and its start times, in order. */
  days: { day: string; label: string; times: string[] }[];
}

/**
 * Summarises shows (start instants, any order) for a buyer: the span of days, how many shows, and each
 * day's start times (issue 35: the event page named only the first date, so later dates sold worse).
 */
export function summariseShows(starts: string[]): ShowsSummary {
  const sorted = [...starts].sort();
  const days: ShowsSummary['days'] = [];
  for (const start of sorted) {
    const day = indiaCalendarDay(start);
    const last = days.at(-1);
    if (last?.day === day) last.times.push(formatTime(start));
    else days.push({ day, label: formatCardDate(start), times: [formatTime(start)] });
  }
  const count = `${sorted.length} ${sorted.length === 1 ? 'show' : 'shows'}`;
  if (sorted.length === 0) return { headline: count, days };
  return { headline: `${formatDaySpan(sorted[0]!, sorted.at(-1)!)} · ${count}`, days };
}

/** '12–13 Dec 2026', '30 Nov – 2 Dec 2026', '30 Dec 2026 – 2 Jan 2027'; one day: 'Sat, 12 Dec 2026'. */
function formatDaySpan(first: string, last: string): string {
  if (indiaCalendarDay(first) === indiaCalendarDay(last)) return formatInIndia(first, 'EEE, d MMM yyyy');
  const [fy, fm] = [formatInIndia(first, 'yyyy'), formatInIndia(first, 'MM')];
  const [ly, lm] = [formatInIndia(last, 'yyyy'), formatInIndia(last, 'MM')];
  if (fy !== ly) return `${formatInIndia(first, 'd MMM yyyy')} – ${formatInIndia(last, 'd MMM yyyy')}`;
  if (fm !== lm) return `${formatInIndia(first, 'd MMM')} – ${formatInIndia(last, 'd MMM yyyy')}`;
  return `${formatInIndia(first, 'd')}–${formatInIndia(last, 'd MMM yyyy')}`;
}
