import type pg from 'pg';

/**
 * Who runs a background job when several servers share one PostgreSQL (ADR 0035, "Background jobs exactly
 * once across servers"): the server holding the job's session-level advisory lock. The lock lives on a
 * connection of its own, checked out of the pool for as long as this server leads, so it dies with that
 * connection (a killed process, a lost network) and another server's next tick takes it over. Each job
 * has its own key, so different servers may lead different jobs.
 *
 * The jobs themselves still claim their rows in their own transactions (a mail is marked sent in the
 * transaction that records it), so a leader cut off mid-run and its successor cannot both finish the
 * same row: leadership keeps the loops from running side by side, it is not what makes a row once.
 */
export function pgJobLeadership(pool: pg.Pool) {
  let session: pg.PoolClient | null = null;
  const held = new Set<string>();
  // Every job's tick asks at once (eleven of them at start), and one connection answers one query at a
  // time: the questions wait their turn here rather than pile onto the client, which node-postgres
  // deprecates (and pg 9 will refuse).
  let turn: Promise<unknown> = Promise.resolve();
  const inTurn = <T>(ask: () => Promise<T>): Promise<T> => {
    const answer = turn.then(ask, ask);
    turn = answer.catch(() => {});
    return answer;
  };

  function lost(client: pg.PoolClient) {
    if (session !== client) return;
    session = null;
    held.clear();
    // The connection is gone or unusable: throw it away rather than back into the pool.
    client.release(true);
  }

  async function connection(): Promise<pg.PoolClient> {
    if (session) return session;
    const client = await pool.connect();
    client.on('error', () => lost(client));
    session = client;
    return client;
  }

  return {
    /** True when this server leads `job` now (taking the lead if no one holds it); false otherwise. */
    leads: (job: string): Promise<boolean> => inTurn(() => leadsNow(job)),
    /** Gives every lead up (a clean shutdown), so another server takes over at once. */
    close: (): Promise<void> => inTurn(giveUp),
  };

  async function leadsNow(job: string): Promise<boolean> {
    let client: pg.PoolClient | undefined;
    try {
      client = await connection();
      if (held.has(job)) {
        // Still ours only while the connection lives: a cheap round trip proves it.
        await client.query('select 1');
        return true;
      }
      const { rows } = await client.query<{ taken: boolean }>(
        'select pg_try_advisory_lock(hashtextextended($1, 0)) as taken',
        [`job:${job}`],
      );
      if (rows[0]?.taken) held.add(job);
      return rows[0]?.taken === true;
    } catch {
      if (client) lost(client);
      return false;
    }
  }

  async function giveUp(): Promise<void> {
    const client = session;
    if (!client) return;
    session = null;
    held.clear();
    try {
      await client.query('select pg_advisory_unlock_all()');
      client.release();
    } catch {
      client.release(true);
    }
  }
}
