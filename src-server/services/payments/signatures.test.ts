import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  hmacSha256Hex,
  paymentSignaturePayload,
  verifyHmacSha256Hex,
  verifyPaymentSignature,
} from './signatures.ts';

const secret = 'key-secret';

describe('payment signatures', () => {
  const orderId = 'order_Abc123';
  const paymentId = 'pay_Xyz789';
  const good = createHmac('sha256', secret).update(`${orderId}|${paymentId}`).digest('hex');

  it("signs 'order_id|payment_id' with HMAC-SHA256 as Razorpay does", () => {
    expect(paymentSignaturePayload(orderId, paymentId)).toBe('order_Abc123|pay_Xyz789');
    expect(hmacSha256Hex(secret, 'order_Abc123|pay_Xyz789')).toBe(good);
    expect(verifyPaymentSignature(secret, { orderId, paymentId, signature: good })).toBe(true);
  });

  it('rejects a signature made for another order, another payment or with another secret', () => {
    expect(verifyPaymentSignature(secret, { orderId: 'order_Other', paymentId, signature: good })).toBe(
      false,
    );
    expect(verifyPaymentSignature(secret, { orderId, paymentId: 'pay_Other', signature: good })).toBe(false);
    expect(verifyPaymentSignature('other-secret', { orderId, paymentId, signature: good })).toBe(false);
  });

  it('rejects malformed signatures without throwing', () => {
    for (const signature of ['', 'abc', good.slice(0, 63), `${good}00`, good.replace(/[0-9a-f]$/, 'z')]) {
      expect(verifyPaymentSignature(secret, { orderId, paymentId, signature })).toBe(false);
    }
  });

  it('accepts an upper-case hex signature of the right value', () => {
    expect(verifyPaymentSignature(secret, { orderId, paymentId, signature: good.toUpperCase() })).toBe(true);
  });
});

describe('webhook signatures', () => {
  it('verifies the HMAC of the raw body and rejects any change to it', () => {
    const body = '{"event":"payment.captured","payload":{}}';
    const signature = createHmac('sha256', 'whsec').update(body).digest('hex');
    expect(verifyHmacSha256Hex('whsec', body, signature)).toBe(true);
    expect(verifyHmacSha256Hex('whsec', `${body} `, signature)).toBe(false);
    expect(verifyHmacSha256Hex('whsec', body.replace('captured', 'failed'), signature)).toBe(false);
  });
});
