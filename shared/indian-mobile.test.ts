import { describe, expect, it } from 'vitest';
import { indianMobileDigits, mobileDigitsSearchedBy } from './indian-mobile.ts';

describe('indianMobileDigits', () => {
  it('keeps the ten digits of a number typed with +91, 0, 91, spaces, dashes or brackets', () => {
    for (const typed of [
      '9876543210',
      '98765 43210',
      '98765-43210',
      '+91 98765 43210',
      '+91-98765-43210',
      '+919876543210',
      '09876543210',
      '919876543210',
      '(98765) 43210',
    ]) {
      expect(indianMobileDigits(typed), typed).toBe('9876543210');
    }
    // Ten digits that happen to start with 91 are the number itself.
    expect(indianMobileDigits('9198765432')).toBe('9198765432');
  });

  it('refuses what is not an Indian mobile number', () => {
    for (const typed of [
      '',
      '98765',
      '5876543210',
      '98765432101',
      '+1 415 555 0100',
      'nine876543210',
      '+91 '.repeat(8),
    ]) {
      expect(indianMobileDigits(typed), typed).toBeNull();
    }
  });
});

describe('mobileDigitsSearchedBy', () => {
  it('searches the digits of a query typed as a number, at most the last ten', () => {
    expect(mobileDigitsSearchedBy('98765 43210')).toBe('9876543210');
    expect(mobileDigitsSearchedBy(' +91 (98765)-43210 ')).toBe('9876543210');
    expect(mobileDigitsSearchedBy('3210')).toBe('3210');
  });

  it('searches no mobile for a booking id or a name that holds digits', () => {
    for (const q of ['jby88dq7', 'JB7K2M9Q', 'zz98765', 'Asha 2', ''])
      expect(mobileDigitsSearchedBy(q), q).toBe('');
  });
});
