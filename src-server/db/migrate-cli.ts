// First: refuse an unsupported Node before anything loads the SQLite driver.
import '../process/require-supported-node.ts';
import { loadEnv } from '../env.ts';
import { databaseFile, openDatabase } from './client.ts';

// `npm run db:migrate`: applies pending migrations without starting the server (the server also does this
// at boot). Like a start, it first backs a database with data up into DATA_DIR/backups (issue 37).
const env = loadEnv();
const file = databaseFile(env.DATA_DIR);
openDatabase(file, { log: (line) => console.error(line) }).close();
console.error(`Migrated ${file}`);
