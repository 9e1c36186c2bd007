// First: refuse an unsupported Node before anything loads the SQLite driver.
import '../process/require-supported-node.ts';
import { openOperatorDatabase } from '../app-database.ts';
import { loadEnv } from '../env.ts';
import { redactedUrl } from './backup-postgres.ts';
import { databaseFile } from './client.ts';

// `npm run db:migrate`: applies pending migrations without starting the server (the server also does this
// at boot), to the server's database: DATA_DIR's SQLite file, which it first backs up into DATA_DIR/backups
// when it has data (issue 37), or DATABASE_URL's PostgreSQL (back that up first: npm run db:backup).
const env = loadEnv();
await (await openOperatorDatabase(env)).close();
console.error(`Migrated ${env.DATABASE_URL ? redactedUrl(env.DATABASE_URL) : databaseFile(env.DATA_DIR)}`);
