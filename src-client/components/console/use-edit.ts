import { trpc } from '../../lib/trpc.ts';
import type { Run } from './edit-error.tsx';

/**
 * Every edit sends the version it was based on; the page reloads the event after each one. Its error goes
 * back to the caller, which shows it next to itself (EditError: a form beside its button, a button
 * beside its row), never in a banner at the top of the page.
 */
export function useEdit(): Run {
  const utils = trpc.useUtils();
  return async (work) => {
    try {
      await work();
    } finally {
      await utils.organiser.editableEvent.invalidate();
    }
  };
}
