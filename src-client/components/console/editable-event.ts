import type { RouterOutputs } from '../../lib/trpc.ts';

/** The event as the editor edits it, with the version every edit is based on. */
export type EditableEvent = RouterOutputs['organiser']['editableEvent'];
export type EditableSlot = EditableEvent['dates'][number]['slots'][number];
export type EditableTicketType = EditableSlot['tickets'][number];
/** What every edit sends: which event, and the version it was based on. */
export type EditBase = { eventId: string; version: number };
