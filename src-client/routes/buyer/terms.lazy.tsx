import { createLazyRoute, Link } from '@tanstack/react-router';
import { LegalPage, type LegalSection } from '../../components/legal-page.tsx';

export const Route = createLazyRoute('/_buyer/Terms & Conditions')({ component: TermsPage });

/**
 * Spec §2: fourteen sections, with minimum age 18, ticket transfers (personal tickets, given away only
 * through My Bookings since issue 16), no resale and organiser refunds.
 */
const SECTIONS: LegalSection[] = [
  {
    id: 'acceptance',
    title: 'Acceptance of Terms',
    body: (
      <p>
        These terms govern your use of the Jalsa website and every ticket you buy through it. By creating an
        account or booking a ticket you agree to them. If you do not agree, please do not use Jalsa.
      </p>
    ),
  },
  {
    id: 'eligibility',
    title: 'Eligibility',
    body: (
      <p>
        You must be at least 18 years old to create an account and buy tickets. Minors may attend events when
        an adult books for them and the event's own age limit allows it. Each event page shows its age limit;
        organisers may ask for proof of age at the gate.
      </p>
    ),
  },
  {
    id: 'account',
    title: 'Your Account',
    body: (
      <p>
        Keep your password secret and your details accurate. You are responsible for what happens under your
        account. Tell us at once if you think someone else has used it.
      </p>
    ),
  },
  {
    id: 'bookings',
    title: 'Bookings and Payments',
    body: (
      <p>
        Prices are in Indian rupees. A convenience fee (with 18% GST on it when the platform is registered for
        GST) and, where an organiser's prices exclude GST, the GST on the tickets are added at checkout and
        shown before you pay. Seats are held for a few minutes while you pay; a booking is confirmed only when
        the payment succeeds and you receive a booking id.
      </p>
    ),
  },
  {
    id: 'tickets',
    title: 'Tickets and Entry',
    body: (
      <p>
        Your ticket is the QR code in My Bookings. Show it at the entrance together with a valid government
        photo ID. Each code admits the number of people shown on it, once. Latecomers may be admitted at the
        organiser's discretion.
      </p>
    ),
  },
  {
    id: 'ticket-transfers',
    title: 'Ticket Transfers',
    body: (
      <p>
        Tickets are personal. You may give a booking to someone else only with Transfer ticket in My Bookings,
        where the organiser allows it and as many times as they allow; not once anyone has checked in with it.
        The booking moves to the recipient's account when they accept with the email address you gave, they
        get a new QR code and yours stops working. The payment and its GST invoice stay with you. The name on
        the booking must match the ID shown at entry, unless the organiser has said otherwise.
      </p>
    ),
  },
  {
    id: 'no-resale',
    title: 'No Resale',
    body: (
      <p>
        You may not resell tickets or offer them for sale above face value, through any channel. Tickets found
        to be resold may be cancelled without refund and their holders refused entry.
      </p>
    ),
  },
  {
    id: 'refunds',
    title: 'Cancellations and Refunds',
    body: (
      <p>
        Refunds follow the organiser's policy for each ticket type, shown as refundable or non-refundable when
        you choose your tickets. If an event is cancelled by its organiser, the ticket price is refunded to
        the original payment method. The convenience fee is refunded only when the event is cancelled.
      </p>
    ),
  },
  {
    id: 'changes-to-events',
    title: 'Changes to Events',
    body: (
      <p>
        Organisers may change an event's line-up, time or venue. We will tell you of significant changes by
        e-mail. Jalsa is a ticketing platform and is not responsible for the content or conduct of events.
      </p>
    ),
  },
  {
    id: 'conduct',
    title: 'Conduct at Venues',
    body: (
      <p>
        Follow the venue's rules and the instructions of staff and security. Organisers may refuse entry or
        remove anyone who endangers others, without refund.
      </p>
    ),
  },
  {
    id: 'acceptable-use',
    title: 'Acceptable Use',
    body: (
      <p>
        Do not misuse the site: no automated buying, scraping, attempts to bypass purchase limits, forged
        tickets or attacks on our systems. We may suspend accounts that do.
      </p>
    ),
  },
  {
    id: 'liability',
    title: 'Limitation of Liability',
    body: (
      <p>
        To the extent the law allows, Jalsa's liability for any claim about a booking is limited to the amount
        you paid for it. We are not liable for indirect losses such as travel or accommodation costs.
      </p>
    ),
  },
  {
    id: 'jurisdiction',
    title: 'Governing Law and Jurisdiction',
    body: (
      <p>
        These terms are governed by the laws of India. Disputes are subject to the exclusive jurisdiction of
        the courts at [City], [State].
      </p>
    ),
  },
  {
    id: 'contact',
    title: 'Changes and Contact',
    body: (
      <p>
        We may update these terms; the date at the top shows the latest version. Questions? Reach us through
        the{' '}
        <Link to="/Contact_Us" className="text-brand-700 underline">
          Contact Us
        </Link>{' '}
        page.
      </p>
    ),
  },
];

function TermsPage() {
  return (
    <LegalPage
      title="Terms and Conditions"
      updated="1 January 2025"
      intro={<p>Please read these terms before you book. They explain your rights and ours.</p>}
      sections={SECTIONS}
    />
  );
}
