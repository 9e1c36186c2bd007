import { describe, expect, it } from 'vitest';
import { pinOf, withoutPin } from './indian-pin.ts';

describe('pinOf', () => {
  it('finds the six-digit PIN an address ends with', () => {
    expect(pinOf('12 Hill Road, Bandra, Mumbai 400050')).toBe('400050');
    expect(pinOf('Indiranagar, Bengaluru-560038')).toBe('560038');
    expect(pinOf('Plot 110001, Sector 5, Noida 201301')).toBe('201301');
  });

  it('none without a valid one: no digits, a leading zero, five or seven digits', () => {
    expect(pinOf('12 Hill Road, Bandra, Mumbai')).toBeNull();
    expect(pinOf('Mumbai 040005')).toBeNull();
    expect(pinOf('Mumbai 40005')).toBeNull();
    expect(pinOf('Phone 9820012345, Mumbai')).toBeNull();
  });

  it('the locality without it', () => {
    expect(withoutPin('Mumbai 400050').trim()).toBe('Mumbai');
  });
});
