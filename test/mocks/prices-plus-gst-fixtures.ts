import type { RouterOutputs } from '../../src-client/lib/trpc.ts';

/**
 * Issue 40's "prices plus GST" event as the server answers for it, for the buyer screens' component
 * tests: a registered organiser's concert in Mumbai (Maharashtra, the organiser's state) whose one type,
 * Gold, costs ₹750 with GST 18 % added at checkout; the default 5 % fee and a GST-registered platform.
 * test/integration/prices-plus-gst.test.ts proves the server answers (and charges) exactly this.
 */
export const PLUS_GST_TICKET_PAISE = 75_000;

const START = '2026-12-12T13:30:00.000Z';
const END = '2026-12-12T16:30:00.000Z';

/** `events.list` / `events.home` item: the card's lowest price with the flag the server sets. */
export const PLUS_GST_SUMMARY: RouterOutputs['events']['list'][number] = {
  id: 'evt-plus-gst',
  pricesPlusGst: true,
  name: 'Tala Live',
  category: 'concerts',
  city: 'Mumbai',
  posterUrl: null,
  imageUrl: null,
  startTime: START,
  endTime: END,
  eventLocationText: 'NSCI Dome, Worli, Mumbai',
  lowestPricePaise: PLUS_GST_TICKET_PAISE,
};

const GOLD = {
  id: 'tt-gold',
  name: 'Gold',
  pricePaise: PLUS_GST_TICKET_PAISE,
  personAllowedPerTicket: 1,
  description: '',
  isRefundable: true,
  totalTickets: 20,
  availableTickets: 20,
  isLive: true,
  benefits: [] as string[],
  maxPerOrder: 10,
  saleOpensAt: null,
  saleClosesAt: null,
  isHidden: false,
};

/** `events.byId`: the event page. */
export const PLUS_GST_DETAIL: RouterOutputs['events']['byId'] = {
  ...PLUS_GST_SUMMARY,
  description: 'An evening of Tala.',
  imagesUrls: [],
  googleMapsEmbedLink: null,
  ageRestrictions: null,
  language: null,
  artistLineup: null,
  termsAndConditions: [],
  platformFeeRate: null,
  refundPolicy: { cutoffHours: 24, rule: 'full', percent: null },
  status: 'published',
  tickets: [
    {
      id: 'd1',
      dateOfEvent: '2026-12-11T18:30:00.000Z',
      isLive: true,
      slots: [{ id: 's1', startTime: START, endTime: END, cancelled: false, tickets: [GOLD] }],
    },
  ],
};

/** `tickets.options`: what ticket selection and the checkout price from. */
export const PLUS_GST_OPTIONS: RouterOutputs['tickets']['options'] = {
  event: {
    id: PLUS_GST_SUMMARY.id,
    name: PLUS_GST_SUMMARY.name,
    eventLocationText: PLUS_GST_SUMMARY.eventLocationText,
    city: PLUS_GST_SUMMARY.city,
    posterUrl: null,
    imageUrl: null,
    startTime: START,
    endTime: END,
    platformFeeRate: null,
  },
  taxes: {
    feeTaxRatePercent: 18,
    admissionTaxRatePercent: 18,
    admissionInvoiceRatePercent: 18,
    admissionExemptionApplies: true,
    admissionIntraState: true,
    feeSupplierState: 'Karnataka',
  },
  waitingRoom: null,
  addOns: [],
  dates: [
    {
      id: 'd1',
      dateOfEvent: '2026-12-11T18:30:00.000Z',
      slots: [{ id: 's1', startTime: START, endTime: END, cancelled: false, ticketTypes: [GOLD] }],
    },
  ],
};
