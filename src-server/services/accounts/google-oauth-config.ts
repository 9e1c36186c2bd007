import type { Env } from '../../env.ts';

/** Google sign-in is offered only when both of its keys are configured. */
export function googleSignInEnabled(env: Pick<Env, 'GOOGLE_CLIENT_ID' | 'GOOGLE_CLIENT_SECRET'>): boolean {
  return Boolean(env.GOOGLE_CLIENT_ID && env.GOOGLE_CLIENT_SECRET);
}
