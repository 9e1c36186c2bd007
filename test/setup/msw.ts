import { afterAll, afterEach, beforeAll } from 'vitest';
import { mswServer } from '../mocks/server.ts';

// msw stands at the network edge only (Razorpay, Resend, Google). A request nobody expected fails the test.
beforeAll(() => mswServer.listen({ onUnhandledRequest: 'error' }));
afterEach(() => mswServer.resetHandlers());
afterAll(() => mswServer.close());
