import { http, passthrough } from 'msw';
import { setupServer } from 'msw/node';

/** The Node msw server for integration tests; third-party handlers are added per test with `mswServer.use`. */
export const mswServer = setupServer();

/** msw stands in for third parties and refuses unknown requests; server processes on 127.0.0.1 are ours. */
const localServers = http.all(/^http:\/\/127\.0\.0\.1:\d+\//, () => passthrough());

/** Lets requests to the tests' own child servers through msw (its handlers are reset after every test). */
export function allowLocalServers() {
  if (!mswServer.listHandlers().includes(localServers)) mswServer.use(localServers);
}
