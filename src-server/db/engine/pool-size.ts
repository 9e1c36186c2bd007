/**
 * Connections each server keeps open to PostgreSQL unless DATABASE_POOL_SIZE says otherwise (`npm run
 * doctor` reports it). A module of its own so env.ts can name it without loading the driver.
 */
export const DEFAULT_POOL_SIZE = 10;
