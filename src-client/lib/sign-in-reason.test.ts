import { describe, expect, it } from 'vitest';
import { signInReason } from './sign-in-reason.ts';

describe('signInReason', () => {
  const checkout = '/checkout-tickets?eventId=e1&selectedDate=d1';

  it('tells a buyer from checkout that the selection is kept, on both pages', () => {
    expect(signInReason(checkout, 'sign-in')).toBe(
      'Please log in to continue with your booking. Your tickets stay selected.',
    );
    expect(signInReason(checkout, 'sign-up')).toBe(
      'Create an account to continue with your booking. Your tickets stay selected.',
    );
  });

  it('says the visitor will be taken back for any other page of this site', () => {
    expect(signInReason('/my-bookings', 'sign-in')).toBe(
      'Please log in to see that page. You will be taken back to it.',
    );
  });

  it('says nothing without a page to go back to, or for one on another site', () => {
    expect(signInReason(undefined, 'sign-in')).toBeNull();
    expect(signInReason('/', 'sign-up')).toBeNull();
    expect(signInReason('//evil.example/checkout-tickets', 'sign-in')).toBeNull();
    expect(signInReason('https://evil.example/', 'sign-up')).toBeNull();
  });
});
