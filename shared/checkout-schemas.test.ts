import { describe, expect, it } from 'vitest';
import { ticketDetailsSchema } from './checkout-schemas.ts';

describe('ticketDetailsSchema', () => {
  const details = { name: 'Meera Iyer', email: 'meera@example.com', state: 'Kerala' };

  it('keeps the 10 digits of a phone typed with +91, 0, spaces or dashes', () => {
    for (const phone of ['+91 98765-43210', '098765 43210', '98765 43210', '9876543210']) {
      expect(ticketDetailsSchema.parse({ ...details, phone }).phone, phone).toBe('9876543210');
    }
  });

  it('still refuses a number that is not an Indian mobile', () => {
    expect(ticketDetailsSchema.safeParse({ ...details, phone: '12345' }).success).toBe(false);
  });
});
