import { loadEnv } from './env.ts';
import { createLogger } from './logger.ts';
import { runServer } from './server.ts';
import { paymentSetupProblem } from './services/payments/gateway-of.ts';

const env = loadEnv();
const logger = createLogger(env.LOG_LEVEL);
const paymentProblem = paymentSetupProblem(env);
if (paymentProblem) {
  logger.fatal(paymentProblem);
  process.exit(1);
}

await runServer(env, logger);
