import http from 'node:http';

/** What Chromium sends: the catalogue's answers go out gzipped to browsers. */
export const BROWSER_ACCEPT_ENCODING = 'gzip, deflate, br, zstd';

export interface HttpAnswer {
  status: number;
  body: string;
  ms: number;
}

/**
 * A small keep-alive HTTP client for the flash sale: at most `connections` sockets, like a crowd of
 * browsers each on its own connection. Network failures answer status 0.
 */
export function createHttpClient(baseURL: string, connections: number) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
  const { hostname, port } = new URL(baseURL);
  return {
    post(path: string, body: string | null, headers: Record<string, string> = {}): Promise<HttpAnswer> {
      const started = performance.now();
      return new Promise((resolve) => {
        const req = http.request(
          {
            agent,
            hostname,
            port,
            path,
            method: 'POST',
            headers: {
              ...(body === null ? {} : { 'content-type': 'application/json' }),
              'content-length': String(body === null ? 0 : Buffer.byteLength(body)),
              ...headers,
            },
          },
          (res) => {
            const chunks: Buffer[] = [];
            res.on('data', (c: Buffer) => chunks.push(c));
            res.on('end', () =>
              resolve({
                status: res.statusCode ?? 0,
                body: Buffer.concat(chunks).toString('utf8'),
                ms: performance.now() - started,
              }),
            );
            res.on('error', () => resolve({ status: 0, body: '', ms: performance.now() - started }));
          },
        );
        req.on('error', () => resolve({ status: 0, body: '', ms: performance.now() - started }));
        if (body !== null) req.write(body);
        req.end();
      });
    },
    close: () => agent.destroy(),
  };
}

export type HttpClient = ReturnType<typeof createHttpClient>;

/** Percentiles of a list of latencies in milliseconds (nearest rank). */
export function percentiles(latencies: number[]) {
  const sorted = Float64Array.from(latencies).sort();
  const at = (p: number) =>
    sorted.length === 0
      ? 0
      : Number(sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!.toFixed(2));
  return { p50: at(50), p95: at(95), p99: at(99), max: at(100) };
}
