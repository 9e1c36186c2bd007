import { z } from 'zod';

/** A booking's states as the orders table filters them ('all' is no filter). */
export const ORDER_STATUSES = ['confirmed', 'cancelled'] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];
export const ORDER_STATUS_LABELS: Record<OrderStatus, string> = {
  confirmed: 'Confirmed',
  cancelled: 'Cancelled',
};

/** Rows per page of the orders table: the client picks one of these, the server refuses anything else. */
export const ORDER_PAGE_SIZES = [25, 50, 100] as const;
export const MAX_ORDER_SEARCH = 100;

export const SALES_MESSAGES = {
  searchLong: `Search for at most ${MAX_ORDER_SEARCH} characters`,
  badCursor: 'This page of orders is out of date. Go back to the first page.',
} as const;

const optionalText = (max: number, message?: string) =>
  z
    .string()
    .trim()
    .max(max, message)
    .optional()
    .transform((value) => (value ? value : undefined));

/**
 * What the orders table and its CSV export are filtered by, from the table's controls or the CSV's
 * query string: a search over buyer name, e-mail, mobile and booking id, a slot, a status.
 */
export const OrdersFilter = z.object({
  q: optionalText(MAX_ORDER_SEARCH, SALES_MESSAGES.searchLong),
  slotId: optionalText(100),
  /** '' (the form's "All statuses") is no filter. */
  status: z.union([z.enum(ORDER_STATUSES), z.literal('').transform(() => undefined)]).optional(),
  sort: z.enum(['newest', 'oldest']).default('newest'),
});
export type OrdersFilter = z.output<typeof OrdersFilter>;

/** One page of the orders table: the filter, a page size, and the cursor the previous page answered. */
export const OrdersPageInput = OrdersFilter.extend({
  limit: z
    .number()
    .int()
    .refine((n) => (ORDER_PAGE_SIZES as readonly number[]).includes(n), 'Choose 25, 50 or 100 rows')
    .default(25),
  /** `<created_at>|<booking id>` of the last row shown; absent for the first page. */
  after: z
    .string()
    .max(200)
    .regex(/^\d{4}-\d\d-\d\dT[\d:.]+Z\|[^|]{1,100}$/, SALES_MESSAGES.badCursor)
    .optional(),
});
export type OrdersPageInput = z.input<typeof OrdersPageInput>;

/** The sales chart: tickets and money per India-time day or hour. */
export const SalesOverTimeInput = z.object({ bucket: z.enum(['day', 'hour']).default('day') });

export const PAYOUT_MESSAGES = {
  badMonth: 'Month must look like 2026-04',
  noMonth: 'Choose a month, like 2026-04',
  futureMonth: 'That month has not begun yet. Choose this month or an earlier one.',
} as const;

const MONTH = /^\d{4}-(0[1-9]|1[0-2])$/;

/**
 * The payout statement's month (India time), from the statement's month selector or the CSV's query
 * string. Absent: the statement shows the latest month with sales or refunds, the CSV every month.
 */
export const PayoutStatementInput = z.object({
  month: z.string().regex(MONTH, PAYOUT_MESSAGES.badMonth).optional(),
});
export type PayoutStatementInput = z.input<typeof PayoutStatementInput>;

/** Rows per page of the organiser's monthly payout statement (one row per event). */
export const MONTHLY_PAYOUT_PAGE_SIZE = 25;

/**
 * The organiser's payout statement of one month (India time), every event of theirs in it: the month
 * (required; a month still to come is refused by the service, which knows the clock) and a page of
 * the events. The CSV's query string is the same without the page (it has every event).
 */
export const MonthlyPayoutInput = z.object({
  month: z.string({ error: PAYOUT_MESSAGES.noMonth }).regex(MONTH, PAYOUT_MESSAGES.badMonth),
  page: z.number().int().min(1, 'Page numbers start at 1').max(10_000).default(1),
});
export type MonthlyPayoutInput = z.input<typeof MonthlyPayoutInput>;
export const MonthlyPayoutCsvInput = MonthlyPayoutInput.pick({ month: true });
