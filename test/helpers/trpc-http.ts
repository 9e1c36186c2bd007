import type { TestApp } from './test-app.ts';

/**
 * Calls one tRPC procedure through the real HTTP app, as the browser's client does (no batching),
 * and returns the status with the parsed body. `cookie` carries a session; the response's
 * Set-Cookie headers are returned for tests of the session flow.
 */
export async function callProcedure(
  testApp: TestApp,
  kind: 'query' | 'mutation',
  procedure: string,
  input?: unknown,
  options: { cookie?: string; origin?: string; headers?: Record<string, string> } = {},
) {
  const headers: Record<string, string> = { ...options.headers };
  if (options.cookie) headers.cookie = options.cookie;
  if (options.origin) headers.origin = options.origin;
  let response: Response;
  if (kind === 'query') {
    const query = input === undefined ? '' : `?input=${encodeURIComponent(JSON.stringify(input))}`;
    response = await testApp.request(`/trpc/${procedure}${query}`, { headers });
  } else {
    headers['content-type'] = 'application/json';
    response = await testApp.request(`/trpc/${procedure}`, {
      method: 'POST',
      headers,
      body: input === undefined ? undefined : JSON.stringify(input),
    });
  }
  const body = (await response.json()) as {
    result?: { data: unknown };
    error?: {
      message: string;
      code: number;
      data: { code: string; httpStatus: number; fieldErrors?: Record<string, string> };
    };
  };
  return {
    status: response.status,
    body,
    setCookies: response.headers.getSetCookie(),
    data: body.result?.data,
  };
}
