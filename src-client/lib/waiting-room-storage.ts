import { admissionPassKey, queueTokenKey } from '../../shared/waiting-room.ts';

/**
 * The waiting room's two strings, kept in localStorage per event so a reload or a brief disconnect
 * never loses the place (issue 19). Each remembers the account it belongs to: after signing in as
 * someone else the page joins afresh instead of showing another account's place.
 */
interface Stored {
  userId: string;
  value: string;
  expiresAt?: string;
}

function read(key: string): Stored | null {
  try {
    const raw = localStorage.getItem(key);
    return raw ? (JSON.parse(raw) as Stored) : null;
  } catch {
    return null;
  }
}

function write(key: string, stored: Stored) {
  try {
    localStorage.setItem(key, JSON.stringify(stored));
  } catch {
    // Private browsing without storage: the place lasts for this page view only.
  }
}

export function storedQueueToken(eventId: string, userId: string): string | null {
  const stored = read(queueTokenKey(eventId));
  return stored?.userId === userId ? stored.value : null;
}

export function storeQueueToken(eventId: string, userId: string, token: string) {
  write(queueTokenKey(eventId), { userId, value: token });
}

/** A pass that has not expired yet (the server checks it again at Proceed). */
export function storedAdmissionPass(eventId: string, userId?: string): string | null {
  const stored = read(admissionPassKey(eventId));
  if (!stored?.expiresAt || Date.parse(stored.expiresAt) <= Date.now()) return null;
  if (userId && stored.userId !== userId) return null;
  return stored.value;
}

export function storeAdmissionPass(eventId: string, userId: string, pass: string, expiresAt: string) {
  write(admissionPassKey(eventId), { userId, value: pass, expiresAt });
}
