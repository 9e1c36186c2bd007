import { describe, expect, it } from 'vitest';
import { currentInvoices } from './current-invoices.ts';

const invoice = (id: string, kind: 'admission' | 'platform_fee', creditNoteNumber: string | null = null) => ({
  id,
  kind,
  creditNoteNumber,
});
const ids = (all: ReturnType<typeof invoice>[]) => currentInvoices(all).map((i) => i.id);

describe('the invoices a booking shows', () => {
  it('a confirmed booking: each kind as issued', () => {
    expect(ids([invoice('a', 'admission'), invoice('f', 'platform_fee')])).toEqual(['a', 'f']);
  });

  it('re-issued with a GSTIN: the new invoice, not the credited one it replaced', () => {
    expect(ids([invoice('a1', 'admission', 'CRN/1'), invoice('a2', 'admission')])).toEqual(['a2']);
  });

  it('cancelled: the latest credited invoice of each kind', () => {
    expect(
      ids([
        invoice('a1', 'admission', 'CRN/1'),
        invoice('a2', 'admission', 'CRN/2'),
        invoice('f', 'platform_fee', 'PCR/1'),
      ]),
    ).toEqual(['a2', 'f']);
  });

  it('cancelled keeping the convenience fee: the credited admission invoice and the fee invoice in force', () => {
    expect(ids([invoice('a', 'admission', 'CRN/1'), invoice('f', 'platform_fee')])).toEqual(['a', 'f']);
  });
});
