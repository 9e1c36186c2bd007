import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Razorpay's signature scheme, which the simulator speaks too: HMAC-SHA256 as lower-case hex.
 * A checkout result is signed over `order_id|payment_id` with the key secret; a webhook over its raw
 * body with the webhook secret.
 */
export function hmacSha256Hex(secret: string, data: string): string {
  return createHmac('sha256', secret).update(data, 'utf8').digest('hex');
}

/** The text a checkout result's signature covers. The order id must be the one the server stored. */
export function paymentSignaturePayload(orderId: string, paymentId: string): string {
  return `${orderId}|${paymentId}`;
}

/** True when `signature` is the HMAC of `data`; compared in constant time, any malformed input is false. */
export function verifyHmacSha256Hex(secret: string, data: string, signature: string): boolean {
  if (!/^[0-9a-f]{64}$/i.test(signature)) return false;
  const expected = Buffer.from(hmacSha256Hex(secret, data), 'hex');
  const given = Buffer.from(signature, 'hex');
  return expected.length === given.length && timingSafeEqual(expected, given);
}

export function verifyPaymentSignature(
  keySecret: string,
  result: { orderId: string; paymentId: string; signature: string },
): boolean {
  return verifyHmacSha256Hex(
    keySecret,
    paymentSignaturePayload(result.orderId, result.paymentId),
    result.signature,
  );
}
