import type { z } from 'zod';
import type { OrganiserRequestInput } from '../../../shared/organiser-schemas.ts';
import { renderMail } from '../mail/layout.ts';
import type { OutgoingMail } from '../mail/outbox.ts';

type Request = z.output<typeof OrganiserRequestInput> & { id: string };

/** To each admin (or the support address when there is none yet): a request to review. */
export function requestReceivedMail(options: {
  to: string;
  request: Request;
  requester: { name: string | null; email: string };
  adminPageUrl: string;
}): OutgoingMail {
  const { request, requester } = options;
  return {
    to: options.to,
    subject: `List your Event: ${request.organisationName} asks to sell tickets`,
    ...renderMail({
      heading: 'A new organiser request',
      paragraphs: [
        `${requester.name ?? requester.email} <${requester.email}> asks to list events on Jalsa.`,
        `Organisation: ${request.organisationName}`,
        `City: ${request.city}. Contact phone: ${request.contactPhone}. GSTIN: ${request.gstin || 'not given'}.`,
        `What they run: ${request.whatTheyRun}`,
      ],
      action: { label: 'Review requests', url: options.adminPageUrl },
      footnote: 'Approve or decline it from the admin page; the requester is told either way.',
    }),
    idempotencyKey: `organiser-request:${request.id}:to:${options.to}`,
  };
}

/** To the requester, once an admin has decided. */
export function requestDecidedMail(options: {
  to: string;
  name: string | null;
  requestId: string;
  organisationName: string;
  approved: boolean;
  consoleUrl: string;
}): OutgoingMail {
  const content = options.approved
    ? renderMail({
        heading: 'You can now list your events',
        greeting: `Hi ${options.name ?? 'there'},`,
        paragraphs: [
          `Your request to list events for ${options.organisationName} on Jalsa has been approved.`,
          'Open the organiser console to set up your events and invite your team.',
        ],
        action: { label: 'Open the organiser console', url: options.consoleUrl },
      })
    : renderMail({
        heading: 'About your request to list events',
        greeting: `Hi ${options.name ?? 'there'},`,
        paragraphs: [
          `Thank you for your interest in listing events for ${options.organisationName} on Jalsa. We are not able to approve your request at this time.`,
          'If you think we got it wrong, reply through Contact Us and tell us more about your events.',
        ],
      });
  return {
    to: options.to,
    subject: options.approved
      ? 'Your Jalsa organiser request was approved'
      : 'Your Jalsa organiser request was declined',
    ...content,
    idempotencyKey: `organiser-request-decided:${options.requestId}`,
  };
}
