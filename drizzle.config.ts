import { defineConfig } from 'drizzle-kit';

export default defineConfig({
  dialect: 'sqlite',
  schema: './src-server/db/schema/*.ts',
  out: './migrations',
  dbCredentials: { url: `${process.env.DATA_DIR ?? './data'}/jalsa.db` },
});
