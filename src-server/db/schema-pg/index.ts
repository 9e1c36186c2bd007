// PostgreSQL's schema (docs/decisions/0035-two-engines.md): every table of ../schema/ in pg-core, kept in
// step by src-server/db/schema-parity.test.ts, migrated from migrations-pg/ (drizzle.pg.config.ts). Add a
// line per area file, as in ../schema/index.ts.
export * from './accounts.ts';
export * from './add-ons.ts';
export * from './attendee-tickets.ts';
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
export * from './partial-refunds.ts';
export * from './payments.ts';
export * from './questions.ts';
export * from './quotas.ts';
export * from './rate-limits.ts';
export * from './roles.ts';
export * from './transfers.ts';
