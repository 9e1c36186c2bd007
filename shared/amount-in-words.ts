/**
 * An amount in words, Indian numbering (lakh, crore), as GST documents print it (issue 36):
 * 118 050 paise → 'Rupees One Thousand One Hundred Eighty and Fifty Paise Only'.
 */
export function amountInWords(paise: number): string {
  if (!Number.isSafeInteger(paise) || paise < 0) throw new RangeError('paise must be whole and ≥ 0');
  const rupees = Math.floor(paise / 100);
  const rest = paise % 100;
  const rupeeWords = rupees === 0 ? 'Zero' : wholeInWords(rupees);
  return rest === 0
    ? `Rupees ${rupeeWords} Only`
    : `Rupees ${rupeeWords} and ${belowHundred(rest)} Paise Only`;
}

const ONES = [
  '',
  'One',
  'Two',
  'Three',
  'Four',
  'Five',
  'Six',
  'Seven',
  'Eight',
  'Nine',
  'Ten',
  'Eleven',
  'Twelve',
  'Thirteen',
  'Fourteen',
  'Fifteen',
  'Sixteen',
  'Seventeen',
  'Eighteen',
  'Nineteen',
];
const TENS = ['', '', 'Twenty', 'Thirty', 'Forty', 'Fifty', 'Sixty', 'Seventy', 'Eighty', 'Ninety'];

/** 1–99. */
function belowHundred(n: number): string {
  if (n < 20) return ONES[n]!;
  const tens = TENS[Math.floor(n / 10)]!;
  return n % 10 === 0 ? tens : `${tens} ${ONES[n % 10]}`;
}

/**
 * A whole number ≥ 1: crore (10 000 000), lakh (100 000), thousand, hundred, the rest. Crores above 99
 * are themselves counted in Indian words ('One Thousand Two Hundred Crore').
 */
function wholeInWords(n: number): string {
  const parts: string[] = [];
  const crore = Math.floor(n / 10_000_000);
  if (crore > 0) parts.push(`${wholeInWords(crore)} Crore`);
  let rest = n % 10_000_000;
  for (const [size, name] of [
    [100_000, 'Lakh'],
    [1_000, 'Thousand'],
    [100, 'Hundred'],
  ] as const) {
    const count = Math.floor(rest / size);
    if (count > 0) parts.push(`${belowHundred(count)} ${name}`);
    rest %= size;
  }
  if (rest > 0) parts.push(belowHundred(rest));
  return parts.join(' ');
}
