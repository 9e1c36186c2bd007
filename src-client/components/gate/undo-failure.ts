import { Unreachable } from '../../gate/gate-engine.ts';

/** What staff are told when an undo fails: the server's reason, or that it needs the network. */
export function undoFailure(e: unknown): string {
  return e instanceof Unreachable || !(e instanceof Error)
    ? 'Undo needs the network: try again when online'
    : e.message;
}
