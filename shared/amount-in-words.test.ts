import { describe, expect, it } from 'vitest';
import { amountInWords } from './amount-in-words.ts';

describe('amountInWords (Indian numbering, as printed on GST documents)', () => {
  it.each([
    [118_050, 'Rupees One Thousand One Hundred Eighty and Fifty Paise Only'],
    [0, 'Rupees Zero Only'],
    [50, 'Rupees Zero and Fifty Paise Only'],
    [100, 'Rupees One Only'],
    [49_900, 'Rupees Four Hundred Ninety Nine Only'],
    [1_101, 'Rupees Eleven and One Paise Only'],
    [236_000, 'Rupees Two Thousand Three Hundred Sixty Only'],
    // ₹1,00,000 is one lakh, not "one hundred thousand".
    [10_000_000, 'Rupees One Lakh Only'],
    // ₹12,34,567.89
    [
      123_456_789,
      'Rupees Twelve Lakh Thirty Four Thousand Five Hundred Sixty Seven and Eighty Nine Paise Only',
    ],
    // ₹1,00,00,000 = one crore; ₹2,05,00,019
    [1_000_000_000, 'Rupees One Crore Only'],
    [2_050_001_900, 'Rupees Two Crore Five Lakh Nineteen Only'],
    // ₹1,234,00,00,000: crores beyond 99 are counted in words too.
    [1_234_000_000_000, 'Rupees One Thousand Two Hundred Thirty Four Crore Only'],
  ])('%i paise → %s', (paise, words) => {
    expect(amountInWords(paise)).toBe(words);
  });

  it('refuses what is not a whole number of paise', () => {
    expect(() => amountInWords(-1)).toThrow(RangeError);
    expect(() => amountInWords(1.5)).toThrow(RangeError);
  });
});
