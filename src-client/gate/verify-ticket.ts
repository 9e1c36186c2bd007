import { splitTicketSubject } from '../../shared/ticket-subject.ts';

/**
 * Ticket tokens on the device (docs/decisions/0022): `{subject}.{signature}`, the subject being the
 * booking id, or `{bookingId}~{n}` after its n-th transfer (ADR 0025). An 86-character signature is
 * Ed25519 over `jalsa-ticket:v2:{subject}`, verified here with the public key the server sent
 * (WebCrypto); a 43-character one is the first release's HMAC, which only the server can check.
 */
export type ParsedToken = {
  subject: string;
  bookingId: string;
  /** The token generation: a QR of a generation below the ticket's was given away. */
  generation: number;
  signature: string;
  kind: 'ed25519' | 'legacy';
};

export function parseToken(token: string): ParsedToken | null {
  const text = token.trim();
  const dot = text.lastIndexOf('.');
  if (dot <= 0 || dot === text.length - 1) return null;
  const signature = text.slice(dot + 1);
  if (!/^[\w-]+$/.test(signature)) return null;
  const subject = text.slice(0, dot);
  const named = { subject, ...splitTicketSubject(subject), signature };
  if (signature.length === 86) return { ...named, kind: 'ed25519' };
  if (signature.length === 43) return { ...named, generation: 0, kind: 'legacy' };
  return null;
}

export function fromBase64Url(text: string): Uint8Array<ArrayBuffer> {
  const base64 = text.replace(/-/g, '+').replace(/_/g, '/');
  const binary = atob(base64 + '='.repeat((4 - (base64.length % 4)) % 4));
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

const keys = new Map<string, Promise<CryptoKey>>();

/** True when the Ed25519 signature is right for the booking id under this public key. */
export async function verifyEd25519Token(publicKey: string, token: ParsedToken): Promise<boolean> {
  if (token.kind !== 'ed25519') return false;
  let key = keys.get(publicKey);
  if (!key) {
    key = crypto.subtle.importKey('raw', fromBase64Url(publicKey), { name: 'Ed25519' }, false, ['verify']);
    keys.set(publicKey, key);
  }
  const signature = fromBase64Url(token.signature);
  if (signature.length !== 64) return false;
  try {
    return await crypto.subtle.verify(
      { name: 'Ed25519' },
      await key,
      signature,
      new TextEncoder().encode(`jalsa-ticket:v2:${token.subject}`),
    );
  } catch {
    return false;
  }
}
