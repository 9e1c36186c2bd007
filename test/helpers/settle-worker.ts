import { parentPort, workerData } from 'node:worker_threads';
import { settlePayment } from '../../src-server/services/payments/confirm.ts';
import { createTestApp } from './test-app.ts';

/**
 * A worker thread with its own connection to an existing test database: settles the given orders at
 * once (the invoice concurrency test runs several of these side by side, like server processes).
 */
const { dataDir, orders, amountPaise } = workerData as {
  dataDir: string;
  orders: { orderId: string; paymentId: string }[];
  amountPaise: number;
};
// Like the test's own app: no platform registration (the demo's comes with demo data).
const app = createTestApp({ DATA_DIR: dataDir, SEED_DEMO_DATA: 'false' });
try {
  const outcomes = await Promise.all(
    orders.map((o) => settlePayment(app.deps, o.orderId, o.paymentId, { amountPaise, source: 'webhook' })),
  );
  parentPort?.postMessage({ outcomes: outcomes.map((o) => o.outcome) });
} catch (err) {
  parentPort?.postMessage({ error: String(err) });
} finally {
  app.deps.sqlite.close();
}
