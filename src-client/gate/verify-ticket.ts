import { type ParsedTicketToken, signedTextOf } from '../../shared/ticket-token-format.ts';

/**
 * Ticket tokens on the device (docs/decisions/0022), read with shared/ticket-token-format.ts: an Ed25519
 * one is verified here with the public key the server sent (WebCrypto); a first-release HMAC one only the
 * server can check.
 */

export function fromBase64Url(text: string): Uint8Array<ArrayBuffer> {
  const base64 = text.replace(/-/g, '+').replace(/_/g, '/');
  const binary = atob(base64 + '='.repeat((4 - (base64.length % 4)) % 4));
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

const keys = new Map<string, Promise<CryptoKey>>();

/** True when the Ed25519 signature is right for the booking id under this public key. */
export async function verifyEd25519Token(publicKey: string, token: ParsedTicketToken): Promise<boolean> {
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
      new TextEncoder().encode(signedTextOf(token)),
    );
  } catch {
    return false;
  }
}
