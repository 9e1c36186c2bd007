import { createLazyRoute, Link } from '@tanstack/react-router';
import { LegalPage, type LegalSection } from '../../components/legal-page.tsx';

export const Route = createLazyRoute('/_buyer/privacy-policy')({ component: PrivacyPolicyPage });

/** Spec §2: eleven sections, from introduction to contact. */
const SECTIONS: LegalSection[] = [
  {
    id: 'introduction',
    title: 'Introduction',
    body: (
      <p>
        Jalsa ("we", "us") runs a website where you can discover events across India and buy tickets for them.
        This policy explains what personal information we collect when you use Jalsa, why we collect it, who
        we share it with and the choices you have. By using Jalsa you agree to the practices described here.
      </p>
    ),
  },
  {
    id: 'information-we-collect',
    title: 'Information We Collect',
    body: (
      <>
        <p>We collect only what we need to run the service:</p>
        <ul>
          <li>
            Account details you give us: your name, e-mail address, mobile number and password (stored only as
            a one-way hash).
          </li>
          <li>
            Booking details: the events, dates, time slots and ticket types you choose, your billing state and
            the amounts paid.
          </li>
          <li>
            Payment references from our payment partner (an order id and payment id). We never see or store
            your full card number, CVV or UPI PIN.
          </li>
          <li>
            Your chosen city, kept in your own browser's local storage. If you use location detection, your
            position is used on your device to pick the nearest city and is not sent to us.
          </li>
          <li>
            Technical data such as your IP address, browser type and the pages you request, recorded in server
            logs for security.
          </li>
          <li>Messages you send us through the Contact Us form.</li>
        </ul>
      </>
    ),
  },
  {
    id: 'how-we-use',
    title: 'How We Use Your Information',
    body: (
      <ul>
        <li>To create and secure your account and keep you signed in.</li>
        <li>
          To reserve your tickets, take payment, issue your booking id and QR ticket, and send your
          confirmation e-mail.
        </li>
        <li>To let organisers verify your ticket at the venue entrance.</li>
        <li>To answer your questions and support requests.</li>
        <li>To detect and prevent fraud, abuse and security incidents.</li>
        <li>To meet our legal, tax and accounting obligations, including GST invoicing.</li>
      </ul>
    ),
  },
  {
    id: 'sharing',
    title: 'Sharing Your Information',
    body: (
      <>
        <p>We do not sell your personal information. We share it only:</p>
        <ul>
          <li>
            With the organiser of the event you booked: your name, booking id and ticket details, so they can
            admit you.
          </li>
          <li>With our payment partner, to process your payment and any refund.</li>
          <li>With our e-mail delivery provider, to send you booking confirmations.</li>
          <li>
            With authorities, when the law requires it or to protect the rights and safety of our users.
          </li>
        </ul>
      </>
    ),
  },
  {
    id: 'security',
    title: 'Data Security',
    body: (
      <p>
        Passwords are stored as salted argon2 hashes, sessions use random tokens of which we keep only a hash,
        tickets carry a signed code that cannot be forged, and all traffic is encrypted in transit. No system
        is perfectly secure, but we review our safeguards regularly and will tell you promptly if a breach
        affects your data.
      </p>
    ),
  },
  {
    id: 'your-rights',
    title: 'Your Rights',
    body: (
      <p>
        Under the Digital Personal Data Protection Act, 2023 you may ask for a summary of the personal data we
        hold about you, ask us to correct or complete it, ask us to erase it when it is no longer needed for
        the purpose you gave it for, and withdraw consent. Some booking records must be kept for tax purposes
        even after you close your account. Write to us using the details in the Contact Us section below.
      </p>
    ),
  },
  {
    id: 'cookies',
    title: 'Cookies and Local Storage',
    body: (
      <p>
        We use one essential cookie to keep you signed in. Your chosen city is kept in your browser's local
        storage so the home page shows events near you. We do not use advertising or cross-site tracking
        cookies. Clearing your browser's data removes both.
      </p>
    ),
  },
  {
    id: 'third-party-links',
    title: 'Third-Party Links',
    body: (
      <p>
        Event pages embed maps from Google Maps and link to WhatsApp and social networks. Those services have
        their own privacy policies, and what you do there is governed by them, not by this policy.
      </p>
    ),
  },
  {
    id: 'children',
    title: "Children's Privacy",
    body: (
      <p>
        Jalsa is not meant for children under 13, and we do not knowingly collect personal information from
        them. If you believe a child under 13 has given us personal information, contact us and we will delete
        it. Tickets for family events are booked by an adult on the child's behalf.
      </p>
    ),
  },
  {
    id: 'changes',
    title: 'Changes to This Policy',
    body: (
      <p>
        We may update this policy when our service or the law changes. The date at the top shows the latest
        version. If a change materially affects how we use your information, we will tell you by e-mail or on
        the site before it takes effect.
      </p>
    ),
  },
  {
    id: 'contact',
    title: 'Contact Us',
    body: (
      <p>
        Questions or requests about your privacy can be sent through our{' '}
        <Link to="/Contact_Us" className="text-brand-700 underline">
          Contact Us
        </Link>{' '}
        page. We reply within 30 days.
      </p>
    ),
  },
];

function PrivacyPolicyPage() {
  return (
    <LegalPage
      title="Privacy Policy"
      updated="1 January 2025"
      intro={
        <p>
          Your privacy matters to us. Here is, in plain language, how Jalsa handles your personal information.
        </p>
      }
      sections={SECTIONS}
    />
  );
}
