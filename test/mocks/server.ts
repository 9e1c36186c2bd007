import { setupServer } from 'msw/node';

/** The Node msw server for integration tests; third-party handlers are added per test with `mswServer.use`. */
export const mswServer = setupServer();
