import autocannon from 'autocannon';

export interface LoadResult {
  name: string;
  requestsPerSecond: number;
  p50: number;
  p97_5: number;
  p99: number;
  non2xx: number;
  errors: number;
  bytesPerRequest: number;
}

/**
 * Runs autocannon against one URL for a fixed duration with keep-alive connections. Latencies are in
 * milliseconds. The load generator runs in this process; the server under test is another process.
 */
export async function measure(
  name: string,
  url: string,
  options: {
    connections?: number;
    durationSeconds?: number;
    headers?: Record<string, string>;
    method?: 'GET' | 'POST';
    body?: string;
    /** Changes each request before it is sent (e.g. a different buyer's session cookie). */
    setupRequest?: (request: autocannon.Request) => autocannon.Request;
  } = {},
): Promise<LoadResult> {
  const result = await autocannon({
    url,
    connections: options.connections ?? 64,
    duration: options.durationSeconds ?? 10,
    headers: options.headers,
    ...(options.method && { method: options.method }),
    ...(options.body !== undefined && { body: options.body }),
    ...(options.setupRequest && { requests: [{ setupRequest: options.setupRequest }] }),
  });
  return {
    name,
    requestsPerSecond: Math.round(result.requests.average),
    p50: result.latency.p50,
    p97_5: result.latency.p97_5,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
    bytesPerRequest:
      result.requests.total > 0 ? Math.round(result.throughput.total / result.requests.total) : 0,
  };
}

/** Prints a human table, then the figures as one JSON line (the last line of every benchmark's output). */
export function report(
  title: string,
  rows: Record<string, string | number>[],
  summary: Record<string, unknown>,
) {
  console.log(`\n${title}`);
  console.table(rows);
  console.log(JSON.stringify(summary));
}
