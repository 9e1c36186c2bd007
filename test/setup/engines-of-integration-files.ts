/**
 * Which engines each integration file runs on (issue 38, ADR 0035). `engines-of-integration-files.test.ts`
 * holds every file of test/integration to exactly one of these, so a new file chooses.
 */

/**
 * Files that run twice, once per engine: in `integration` on SQLite and in `integration-postgres` with
 * TEST_ENGINE=postgres, each building its app with createTestAppOn(testEngine()) and its data with the
 * engine-neutral helpers (test/helpers/engine-fixtures.ts).
 */
export const ON_BOTH_ENGINES = [
  'test/integration/access-codes.test.ts',
  'test/integration/add-ons.test.ts',
  'test/integration/admin-page.test.ts',
  'test/integration/attendee-qr.test.ts',
  'test/integration/attendee-questions.test.ts',
  'test/integration/auth-google.test.ts',
  'test/integration/auth-password-reset.test.ts',
  'test/integration/auth.test.ts',
  'test/integration/bad-input.property.test.ts',
  'test/integration/booking-check-in-history.test.ts',
  'test/integration/booking-history.test.ts',
  'test/integration/booking-mail-add-ons.test.ts',
  'test/integration/bookings-access.test.ts',
  'test/integration/box-office.test.ts',
  'test/integration/buyer-cancellation.test.ts',
  'test/integration/cancellations.test.ts',
  'test/integration/catalogue.test.ts',
  'test/integration/checkout-taxes.test.ts',
  'test/integration/checkout.test.ts',
  'test/integration/console-home.test.ts',
  'test/integration/convenience-fee-cap.test.ts',
  'test/integration/dev-mail-access.test.ts',
  'test/integration/discount-codes.test.ts',
  'test/integration/e-invoicing.test.ts',
  'test/integration/event-editor.test.ts',
  'test/integration/event-images.test.ts',
  'test/integration/event-map-link.test.ts',
  'test/integration/event-money.test.ts',
  'test/integration/event-team.test.ts',
  'test/integration/events.test.ts',
  'test/integration/faults-gateway.test.ts',
  'test/integration/flood-bounds.test.ts',
  'test/integration/gate-look-up-attendees.test.ts',
  'test/integration/gate.test.ts',
  'test/integration/gst-documents.test.ts',
  'test/integration/gst-e-invoice-credit-notes.test.ts',
  'test/integration/gst-exemption-and-rates.test.ts',
  'test/integration/gst-fee-invoice.test.ts',
  'test/integration/gst-gstin-after-part-refund.test.ts',
  'test/integration/gst-place-of-supply.test.ts',
  'test/integration/gst-sac-by-kind.test.ts',
  'test/integration/gst-stale-rates.test.ts',
  'test/integration/gstr1-export.test.ts',
  'test/integration/health.test.ts',
  'test/integration/hoarding.test.ts',
  'test/integration/inventory.test.ts',
  'test/integration/invoices.test.ts',
  'test/integration/mail-contact.test.ts',
  'test/integration/mail-floods.test.ts',
  'test/integration/mail-rate.test.ts',
  'test/integration/mail.test.ts',
  'test/integration/monthly-payout-statement.test.ts',
  'test/integration/not-found.test.ts',
  'test/integration/orders-csv.test.ts',
  'test/integration/organiser-requests.test.ts',
  'test/integration/owed-invoices.test.ts',
  'test/integration/page-first-data.test.ts',
  'test/integration/page-largest-paint.test.ts',
  'test/integration/partial-refunds-buyer.test.ts',
  'test/integration/partial-refunds-razorpay.test.ts',
  'test/integration/partial-refunds.test.ts',
  'test/integration/payment-setup.test.ts',
  'test/integration/payments.test.ts',
  'test/integration/payout-statement.test.ts',
  'test/integration/platform-e-invoicing.test.ts',
  'test/integration/platform-invoices-export.test.ts',
  'test/integration/prices-plus-gst.test.ts',
  'test/integration/public-links.test.ts',
  'test/integration/public-query-cache.test.ts',
  'test/integration/quotas.test.ts',
  'test/integration/razorpay.test.ts',
  'test/integration/readiness.test.ts',
  'test/integration/refund-jobs.test.ts',
  'test/integration/reschedule.test.ts',
  'test/integration/role-middlewares.test.ts',
  'test/integration/sales-dashboard.test.ts',
  'test/integration/search-cleanup.test.ts',
  'test/integration/security-access-matrix.test.ts',
  'test/integration/security-account-mail.test.ts',
  'test/integration/security-console-access-matrix.test.ts',
  'test/integration/security-headers.test.ts',
  'test/integration/security-http-routes.property.test.ts',
  'test/integration/security-limits.test.ts',
  'test/integration/security-logs.test.ts',
  'test/integration/security-malformed-paths.test.ts',
  'test/integration/security-payments.test.ts',
  'test/integration/security-sessions.test.ts',
  'test/integration/storefront-visibility.test.ts',
  'test/integration/test-order.test.ts',
  'test/integration/transfers.test.ts',
  'test/integration/waiting-room.test.ts',
  'test/integration/waitlist.test.ts',
  'test/integration/webhooks.test.ts',
];

/**
 * Files that prove both engines themselves, each case once per engine in one run (`describe.each` over
 * the engines, ADR 0045's transitions written once): `engine-*.test.ts`.
 */
export const BOTH_ENGINES_WITHIN = /^test\/integration\/engine-[a-z0-9-]+\.test\.ts$/;

/** Files that run on one engine, with the reason. */
export const ONE_ENGINE: Readonly<Record<string, string>> = {
  'test/integration/catalogue-upgrade.test.ts':
    'upgrades a SQLite file an earlier release made (PostgreSQL has no earlier release to upgrade from)',
  'test/integration/demo-seed.test.ts':
    'the demo data, which `npm start` seeds on SQLite only (none on PostgreSQL, ADR 0035)',
  'test/integration/deploy-files.test.ts': 'the compose files, Dockerfile and Caddyfile as text: no database',
  'test/integration/discount-columns-upgrade.test.ts':
    'upgrades a SQLite file an earlier release made (PostgreSQL has no earlier release to upgrade from)',
  'test/integration/doctor.test.ts':
    '`npm run doctor` on a SQLite installation; doctor-postgres.test.ts checks a PostgreSQL one',
  'test/integration/doctor-postgres.test.ts': "PostgreSQL's own: `npm run doctor` on a PostgreSQL database",
  'test/integration/install-scripts.test.ts': 'the package scripts and install steps: no database',
  'test/integration/log-blocks.test.ts': "a real process's stdout in blocks: the logger, whatever the engine",
  'test/integration/move-then-sell-on-postgres.test.ts':
    "PostgreSQL's own: a previous release's installation moved in, then sold on",
  'test/integration/node-versions.test.ts': 'the supported Node lines kept in step across files: no database',
  'test/integration/partial-refunds-upgrade.test.ts':
    'upgrades a SQLite file an earlier release made (PostgreSQL has no earlier release to upgrade from)',
  'test/integration/pg-move.test.ts':
    "PostgreSQL's own: `npm run db:move-to-postgres` from a SQLite file into PostgreSQL",
  'test/integration/postgres-schema.test.ts':
    "PostgreSQL's own: its schema in step with SQLite's (the parity test)",
  'test/integration/proceed-statements.test.ts':
    "counts the SQLite statements one Proceed runs, the flash-sale benchmark's figure",
  'test/integration/query-plans.test.ts':
    "SQLite's own query plans (EXPLAIN QUERY PLAN) on the request paths",
  'test/integration/roles-upgrade.test.ts':
    'upgrades a SQLite file an earlier release made (PostgreSQL has no earlier release to upgrade from)',
  'test/integration/s3-image-storage.test.ts':
    'uploads kept in an S3-compatible bucket: the bucket, not the database, is what it proves',
  'test/integration/security-sign-in-limits.test.ts':
    'replaces a module with vi.mock, so it runs isolated (integration-isolated); the limits it proves are engine-neutral and auth.test.ts runs them on both',
};
