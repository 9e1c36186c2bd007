import { chargedRateOf, reportedSacOf } from '../../../shared/gst.ts';
import { GST_STATE_CODES } from '../../../shared/gst-states.ts';
import { pinOf, withoutPin } from '../../../shared/indian-pin.ts';
import { isIndianState } from '../../../shared/states.ts';
import { creditedBuckets } from './credited-buckets.ts';
import type { CreditNoteRow, InvoiceRow } from './invoice-pdf.ts';

/**
 * The IRP's invoice (e-invoice schema version 1.1, the fields a B2B service invoice needs), built only
 * from the stored invoice row, never recomputed: amounts are the stored paise written as rupees.
 * Which invoices are sent is decided by register-e-invoices.ts.
 */
export interface IrpInvoicePayload {
  Version: '1.1';
  TranDtls: { TaxSch: 'GST'; SupTyp: 'B2B'; RegRev: 'N'; IgstOnIntra: 'N' };
  /** INV for an invoice, CRN for a credit note (which then names its invoice in RefDtls). */
  DocDtls: { Typ: 'INV' | 'CRN'; No: string; Dt: string };
  SellerDtls: IrpParty;
  BuyerDtls: IrpParty & { Pos: string };
  ItemList: IrpItem[];
  ValDtls: { AssVal: number; CgstVal: number; SgstVal: number; IgstVal: number; TotInvVal: number };
  /** A credit note's preceding document: the invoice it credits, its number and date. */
  RefDtls?: { PrecDocDtls: { InvNo: string; InvDt: string }[] };
}

interface IrpParty {
  Gstin: string;
  LglNm: string;
  Addr1: string;
  Loc: string;
  Pin?: number;
  Stcd: string;
}

interface IrpItem {
  SlNo: string;
  PrdDesc: string;
  IsServc: 'Y';
  HsnCd: string;
  Qty: number;
  Unit: 'OTH';
  UnitPrice: number;
  TotAmt: number;
  AssAmt: number;
  GstRt: number;
  IgstAmt: number;
  CgstAmt: number;
  SgstAmt: number;
  TotItemVal: number;
}

export function buildIrpPayload(invoice: InvoiceRow): IrpInvoicePayload {
  return {
    ...header(invoice),
    DocDtls: { Typ: 'INV', No: invoice.number, Dt: irpDate(invoice.issuedAt) },
    ItemList: invoice.lines.map((line, i) => ({
      SlNo: String(i + 1),
      PrdDesc: line.description.slice(0, 300),
      IsServc: 'Y',
      HsnCd: reportedSacOf(line),
      Qty: line.quantity,
      Unit: 'OTH',
      // The price before tax, so that quantity × unit price is the taxable value (3 decimals allowed).
      UnitPrice: unitPrice(line.taxableValuePaise, line.quantity),
      TotAmt: rupees(line.taxableValuePaise),
      AssAmt: rupees(line.taxableValuePaise),
      GstRt: chargedRateOf(line),
      IgstAmt: rupees(line.igstPaise),
      CgstAmt: rupees(line.cgstPaise),
      SgstAmt: rupees(line.sgstPaise),
      TotItemVal: rupees(line.totalPaise),
    })),
    ValDtls: valuesOf(invoice),
  };
}

/**
 * A credit note on an e-invoiced invoice as the IRP's CRN: the invoice's parties and place of supply,
 * the invoice named as the preceding document (number and date), and the note's own stored amounts. A
 * note stores only totals, so its items are the invoice's SAC-and-rate groups with each head spread in
 * proportion, exactly as GSTR-1's CDNR rows are (credited-buckets.ts `creditedBuckets`): the items add up to
 * the note to the paisa. A note crediting the whole invoice returns each group's quantity; a part credit
 * is one unit of each group, its value the amount credited.
 */
export function buildIrpCreditNotePayload(invoice: InvoiceRow, note: CreditNoteRow): IrpInvoicePayload {
  const whole = note.totalPaise === invoice.totalPaise;
  const items = creditedBuckets(invoice, note, whole).filter((b) => b.taxable + b.igst + b.cgst + b.sgst > 0);
  return {
    ...header(invoice),
    DocDtls: { Typ: 'CRN', No: note.number, Dt: irpDate(note.issuedAt) },
    ItemList: items.map((b, i) => {
      const quantity = whole ? Math.max(b.quantity, 1) : 1;
      const descriptions = invoice.lines
        .filter((l) => reportedSacOf(l) === b.sac && chargedRateOf(l) === b.rate)
        .map((l) => l.description);
      return {
        SlNo: String(i + 1),
        PrdDesc: [...new Set(descriptions)].join('; ').slice(0, 300) || 'Admission',
        IsServc: 'Y',
        HsnCd: b.sac,
        Qty: quantity,
        Unit: 'OTH',
        UnitPrice: unitPrice(b.taxable, quantity),
        TotAmt: rupees(b.taxable),
        AssAmt: rupees(b.taxable),
        GstRt: b.rate,
        IgstAmt: rupees(b.igst),
        CgstAmt: rupees(b.cgst),
        SgstAmt: rupees(b.sgst),
        TotItemVal: rupees(b.taxable + b.igst + b.cgst + b.sgst),
      };
    }),
    ValDtls: valuesOf(note),
    RefDtls: { PrecDocDtls: [{ InvNo: invoice.number, InvDt: irpDate(invoice.issuedAt) }] },
  };
}

/** What an invoice and its credit notes share: the schema, the transaction and the two parties. */
function header(
  invoice: InvoiceRow,
): Pick<IrpInvoicePayload, 'Version' | 'TranDtls' | 'SellerDtls' | 'BuyerDtls'> {
  if (!invoice.supplierGstin || !invoice.buyerGstin) {
    throw new Error(`invoice ${invoice.number} is not a B2B tax invoice`);
  }
  return {
    Version: '1.1',
    TranDtls: { TaxSch: 'GST', SupTyp: 'B2B', RegRev: 'N', IgstOnIntra: 'N' },
    SellerDtls: {
      Gstin: invoice.supplierGstin,
      LglNm: invoice.supplierName.slice(0, 100),
      ...address(invoice.supplierAddress, invoice.supplierState),
      Stcd: stateCode(invoice.supplierState),
    },
    BuyerDtls: {
      Gstin: invoice.buyerGstin,
      LglNm: (invoice.buyerLegalName ?? invoice.buyerName).slice(0, 100),
      Pos: stateCode(invoice.placeOfSupply),
      // Collected for every B2B invoice (Rule 46); an older invoice without one gives its state.
      ...address(invoice.buyerAddress ?? invoice.buyerState, invoice.buyerState),
      Stcd: invoice.buyerGstin.slice(0, 2),
    },
  };
}

function valuesOf(
  doc: Pick<InvoiceRow, 'taxableValuePaise' | 'cgstPaise' | 'sgstPaise' | 'igstPaise' | 'totalPaise'>,
) {
  return {
    AssVal: rupees(doc.taxableValuePaise),
    CgstVal: rupees(doc.cgstPaise),
    SgstVal: rupees(doc.sgstPaise),
    IgstVal: rupees(doc.igstPaise),
    TotInvVal: rupees(doc.totalPaise),
  };
}

function unitPrice(taxablePaise: number, quantity: number): number {
  return Math.round((taxablePaise * 10) / Math.max(quantity, 1)) / 1000;
}

function rupees(paise: number): number {
  return paise / 100;
}

function stateCode(state: string): string {
  return isIndianState(state) ? GST_STATE_CODES[state] : '96';
}

/**
 * Address line, locality and PIN code (shared/indian-pin.ts `pinOf`). The seller's PIN is mandatory in
 * schema 1.1: e-invoicing cannot be turned on, nor the profile saved while it is on, without one
 * (e-invoicing-setting.ts, organiser-profile.ts); the platform's is checked at start (env.ts).
 */
function address(text: string, state: string): Pick<IrpParty, 'Addr1' | 'Loc' | 'Pin'> {
  const pin = pinOf(text);
  const parts = text
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean);
  const locality = withoutPin(parts.at(-1) ?? '').trim() || state;
  return {
    Addr1: text.slice(0, 100),
    Loc: (locality.length >= 3 ? locality : state).slice(0, 50),
    ...(pin ? { Pin: Number(pin) } : {}),
  };
}

/** The IRP's date: dd/mm/yyyy, the IST calendar day. */
function irpDate(instant: string): string {
  const ist = new Date(new Date(instant).getTime() + 330 * 60_000);
  const dd = String(ist.getUTCDate()).padStart(2, '0');
  const mm = String(ist.getUTCMonth() + 1).padStart(2, '0');
  return `${dd}/${mm}/${ist.getUTCFullYear()}`;
}
