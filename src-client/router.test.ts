import { QueryClient } from '@tanstack/react-query';
import { expect, it } from 'vitest';
import { isPagePath, PAGE_PATHS } from '../shared/page-paths.ts';
import type { TrpcUtils } from './lib/trpc.ts';
import { createAppRouter, loadAllRoutes } from './router.tsx';

it('the server knows every path the client router has a screen for, and only those', async () => {
  const router = createAppRouter({ queryClient: new QueryClient(), trpcUtils: {} as TrpcUtils });
  await loadAllRoutes(router);
  // Layout routes (pathless: an id, no path) draw chrome and decide access; they are no screen.
  const routerPaths = Object.values(
    router.routesById as Record<string, { fullPath: string; id: string; options: { path?: string } }>,
  )
    .filter((route) => route.id !== '__root__' && route.options.path !== undefined)
    .map((route) => route.fullPath);
  expect([...routerPaths].sort()).toEqual([...PAGE_PATHS].sort());
});

it('matches screens by path, case and a trailing slash aside, and nothing else', () => {
  expect(isPagePath('/')).toBe(true);
  expect(isPagePath('/events/evt-123')).toBe(true);
  expect(isPagePath('/Events/evt-123/')).toBe(true);
  expect(isPagePath('/Terms & Conditions')).toBe(true);
  expect(isPagePath('/events')).toBe(false);
  expect(isPagePath('/events/a/b')).toBe(false);
  expect(isPagePath('/dev/mail')).toBe(false);
  expect(isPagePath('/wp-login.php')).toBe(false);
});
