// Event-card formats in India time without date-fns: India has kept one fixed offset, UTC+05:30, with
// no daylight saving since 1945, so shifting the instant and reading its UTC fields is exact. The home
// page's cards use these so date-fns and @date-fns/tz (≈7 KB gzipped) load only with the screens that
// need other formats (docs/benchmarks.md). `india-clock.test.ts` checks them against shared/dates.ts.

const INDIA_OFFSET_MS = (5 * 60 + 30) * 60_000;
const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

function inIndia(instant: string | Date): Date {
  return new Date(new Date(instant).getTime() + INDIA_OFFSET_MS);
}

/** Event card date, 'EEE, d MMM', e.g. 'Sat, 5 Dec' (same as shared/dates.ts formatCardDate). */
export function formatCardDate(instant: string | Date): string {
  const d = inIndia(instant);
  return `${WEEKDAYS[d.getUTCDay()]}, ${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]}`;
}

/** 'h:mm a', e.g. '7:30 PM' (same as shared/dates.ts formatTime). */
export function formatTime(instant: string | Date): string {
  const d = inIndia(instant);
  const hours = d.getUTCHours();
  const minutes = String(d.getUTCMinutes()).padStart(2, '0');
  return `${hours % 12 === 0 ? 12 : hours % 12}:${minutes} ${hours < 12 ? 'AM' : 'PM'}`;
}
