import { defineConfig } from 'drizzle-kit';

// PostgreSQL's migrations (docs/decisions/0035-two-engines.md), generated from schema-pg/ the way
// drizzle.config.ts generates SQLite's from schema/. `npm run db:generate` runs both.
export default defineConfig({
  dialect: 'postgresql',
  schema: './src-server/db/schema-pg/*.ts',
  out: './migrations-pg',
  dbCredentials: { url: process.env.DATABASE_URL ?? 'postgres://localhost/jalsa' },
});
