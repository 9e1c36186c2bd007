import { z } from 'zod';
import { formatCount } from './money.ts';

/**
 * Visitors admitted per minute when the organiser sets none: 1,000 a minute is ≈ 17 buyers a second,
 * 2.5 % of the 673 Proceeds a second one process sustained in its slowest recorded run
 * (docs/benchmarks.md), so each admitted buyer may retry Proceed, pay and confirm several times over
 * and the checkout still runs far below its measured throughput (docs/decisions/0026-waiting-room.md).
 */
export const DEFAULT_ADMIT_PER_MINUTE = 1_000;
export const MAX_ADMIT_PER_MINUTE = 10_000;
/** How long an admission pass lasts; the waiting page renews it while the visitor stays admitted. */
export const ADMISSION_PASS_MS = 10 * 60 * 1000;

export const WAITING_ROOM_MESSAGES = {
  rateInvalid: `Admit rate must be a whole number from 1 to ${formatCount(MAX_ADMIT_PER_MINUTE)} a minute`,
  opensAtInvalid: 'Please enter a valid on-sale date and time',
  opensAtPast: 'The on-sale time must be in the future',
  passRequired:
    'This event has a waiting room: please wait for your turn in it, then choose your tickets from there.',
  notOpenYet: 'Sales for this event have not opened yet.',
  notWaitingRoom: 'This event has no waiting room.',
  badToken: 'Your place in the waiting room could not be found. Please open the waiting room again.',
} as const;

const M = WAITING_ROOM_MESSAGES;

export const admitRateField = z
  .number({ message: M.rateInvalid })
  .int(M.rateInvalid)
  .min(1, M.rateInvalid)
  .max(MAX_ADMIT_PER_MINUTE, M.rateInvalid);

/**
 * The organiser's waiting-room settings. `opensAt` must lie ahead when the room is switched on; that
 * needs the clock, so the service checks it (the form checks it too, with the same message).
 */
export const WaitingRoomSettingsInput = z.object({
  eventId: z.string().min(1).max(200),
  enabled: z.boolean(),
  opensAt: z.iso.datetime({ offset: true, message: M.opensAtInvalid }),
  /** Null: the default (DEFAULT_ADMIT_PER_MINUTE). */
  admitPerMinute: admitRateField.nullable(),
});
export type WaitingRoomSettings = z.infer<typeof WaitingRoomSettingsInput>;

export const JoinWaitingRoomInput = z.object({ eventId: z.string().min(1).max(200) });

/**
 * What `GET /api/waiting-room/:eventId` answers. Without a queue token: the room's public state. With
 * one (header QUEUE_TOKEN_HEADER): the visitor's place too, and the admission pass once admitted.
 */
export interface WaitingRoomStatus {
  enabled: boolean;
  opensAt: string | null;
  /** The server's clock, so the countdown does not depend on the visitor's. */
  serverNow: string;
  open: boolean;
  soldOut: boolean;
  admitPerMinute: number;
  /** Present when a valid queue token came with the request. */
  visitor?: {
    /** Null before the draw at opening. */
    position: number | null;
    ahead: number | null;
    /** Whole minutes, rounded up; null before opening or once admitted. */
    estimatedWaitMinutes: number | null;
    admitted: boolean;
    pass: string | null;
    passExpiresAt: string | null;
  };
  /** When to ask again (ms), jittered: sooner near the head of the queue, rarely far from it. */
  nextCheckMs: number;
}

export const QUEUE_TOKEN_HEADER = 'x-waiting-room-token';

/** Where the browser keeps a visitor's queue token and admission pass (per event, across reloads). */
export const queueTokenKey = (eventId: string) => `jalsa.waitingRoom.token.${eventId}`;
export const admissionPassKey = (eventId: string) => `jalsa.waitingRoom.pass.${eventId}`;

/** "about N minutes", honestly rounded up, for the waiting page. */
export function describeWait(minutes: number | null): string {
  if (minutes === null) return '';
  if (minutes <= 1) return 'about a minute';
  if (minutes < 120) return `about ${minutes} minutes`;
  return `about ${Math.round(minutes / 60)} hours`;
}
