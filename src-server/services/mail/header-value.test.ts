import { describe, expect, it } from 'vitest';
import { headerValue, withSafeHeaders } from './header-value.ts';

describe('headerValue', () => {
  it.each([
    [
      'Booking Confirmed - Sunburn\r\nBcc: eve@evil.example',
      'Booking Confirmed - Sunburn Bcc: eve@evil.example',
    ],
    ['Sunburn\nBcc: eve@evil.example', 'Sunburn Bcc: eve@evil.example'],
    ['Sunburn\rX-Header: 1', 'Sunburn X-Header: 1'],
    ['a\u0000b\u007fc\u0085d\u2028e\u2029f\tg', 'a b c d e f g'],
    ['  Sunburn \r\n  ', 'Sunburn'],
  ])('puts %j on one line', (input, output) => {
    expect(headerValue(input)).toBe(output);
  });

  it('leaves ordinary text, emoji and Indian scripts as they are', () => {
    expect(headerValue('🎟️ Booking Confirmed - अरिजीत सिंह Live, Mumbai')).toBe(
      '🎟️ Booking Confirmed - अरिजीत सिंह Live, Mumbai',
    );
  });
});

describe('withSafeHeaders', () => {
  it('cleans every header value and leaves the bodies alone', () => {
    const safe = withSafeHeaders({
      from: 'Jalsa\r\nBcc: eve@evil.example <bookings@jalsa.local>',
      to: 'asha@example.com\r\nBcc: eve@evil.example',
      replyTo: 'help@jalsa.local\nBcc: eve@evil.example',
      subject: 'Hi\r\nthere',
      text: 'line one\r\nline two',
      attachments: [{ filename: 'ticket\r\n.pdf', contentType: 'application/pdf', content: 'JVBERi0=' }],
    });
    expect(safe).toEqual({
      from: 'Jalsa Bcc: eve@evil.example <bookings@jalsa.local>',
      to: 'asha@example.com Bcc: eve@evil.example',
      replyTo: 'help@jalsa.local Bcc: eve@evil.example',
      subject: 'Hi there',
      text: 'line one\r\nline two',
      attachments: [{ filename: 'ticket .pdf', contentType: 'application/pdf', content: 'JVBERi0=' }],
    });
  });
});
