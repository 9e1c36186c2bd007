const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const IST_OFFSET = 5.5 * HOUR;

/** Where `testClock()` starts: fixtures made for in-process tests are dated from it. */
export const TEST_CLOCK_START = new Date('2026-11-21T06:30:00.000Z');

export interface FixtureShow {
  /** Midnight India time of the show's day, as UTC ISO (what a date's `dateOfEvent` holds). */
  day: string;
  /** 7:00 PM India time. */
  start: string;
  /** 11:00 PM India time. */
  end: string;
}

/**
 * The fixture show: 7:00-11:00 PM India time, `daysAhead` India-time days after `now`. Dated from the
 * clock the server under test reads (the test clock for in-process apps, the real one for server
 * processes), so a fixture is a future show whatever day the suite runs; from `TEST_CLOCK_START` the
 * default is Saturday 5 Dec 2026, 13:30-17:30 UTC.
 */
export function fixtureShow(now: Date, daysAhead = 14): FixtureShow {
  const dayNumber = Math.floor((now.getTime() + IST_OFFSET) / DAY) + daysAhead;
  const midnight = dayNumber * DAY - IST_OFFSET;
  return {
    day: new Date(midnight).toISOString(),
    start: new Date(midnight + 19 * HOUR).toISOString(),
    end: new Date(midnight + 23 * HOUR).toISOString(),
  };
}

/** The first Saturday at least `minDaysAhead` India-time days after `now` (0 = Sunday ... 6 = Saturday). */
export function daysToSaturday(now: Date, minDaysAhead = 14): number {
  const dayNumber = Math.floor((now.getTime() + IST_OFFSET) / DAY) + minDaysAhead;
  // 1 Jan 1970 was a Thursday (4).
  const weekday = (dayNumber + 4) % 7;
  return minDaysAhead + ((6 - weekday + 7) % 7);
}

/** How the buyer pages write a day: "05 Dec 2026". */
export function indiaDayLabel(iso: string): string {
  return new Intl.DateTimeFormat('en-GB', {
    timeZone: 'Asia/Kolkata',
    day: '2-digit',
    month: 'short',
    year: 'numeric',
  }).format(new Date(iso));
}
