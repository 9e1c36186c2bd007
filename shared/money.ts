/** Money is integer paise everywhere; rupees appear only here, when formatted for people. */
const rupees = new Intl.NumberFormat('en-IN', {
  style: 'currency',
  currency: 'INR',
  minimumFractionDigits: 0,
  maximumFractionDigits: 2,
});
const rupeesExact = new Intl.NumberFormat('en-IN', {
  style: 'currency',
  currency: 'INR',
  minimumFractionDigits: 2,
});

/** ₹1,234.5 → '₹1,234.50'; whole rupees drop the paise ('₹499'). */
export function formatPaise(paise: number): string {
  return paise % 100 === 0 ? rupees.format(paise / 100) : rupeesExact.format(paise / 100);
}

/** Always two decimals, as on a bill ('₹1,234.00'). */
export function formatPaiseExact(paise: number): string {
  return rupeesExact.format(paise / 100);
}

/** 199.99 → 19999. For turning a typed or seeded rupee amount into paise without float drift. */
export function rupeesToPaise(rupeesAmount: number): number {
  return Math.round(rupeesAmount * 100);
}
