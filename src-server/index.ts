// First: refuse an unsupported Node before anything loads the SQLite driver.
import './process/require-supported-node.ts';
import { StartupRefusal } from './app-secret.ts';
import { loadEnv } from './env.ts';
import { createLogger } from './logger.ts';
import { runServer } from './server.ts';
import { startupMessage, startupProblems } from './startup-check.ts';

// Every missing or bad setting in one readable message, never a stack trace.
const problems = startupMessage(startupProblems());
if (problems) {
  process.stderr.write(`${problems}\n`);
  process.exit(1);
}

const env = loadEnv();
try {
  await runServer(env, createLogger(env.LOG_LEVEL));
} catch (err) {
  if (!(err instanceof StartupRefusal)) throw err;
  process.stderr.write(`${err.message}\n`);
  process.exit(1);
}
