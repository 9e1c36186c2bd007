// The one place drizzle sees every table (client.ts passes it as the query schema). Add a line per area file.
export * from './accounts.ts';
export * from './booking-history.ts';
export * from './bookings.ts';
export * from './box-office.ts';
export * from './catalog.ts';
export * from './contact.ts';
export * from './discounts.ts';
export * from './e-invoices.ts';
export * from './gate.ts';
export * from './installation.ts';
export * from './invoices.ts';
export * from './mail.ts';
export * from './on-sale.ts';
export * from './payments.ts';
export * from './rate-limits.ts';
export * from './roles.ts';
export * from './transfers.ts';
