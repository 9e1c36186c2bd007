import { TEAM_ROLE_LABELS, type TeamRole } from '../../../shared/organiser-schemas.ts';
import { renderMail } from '../mail/layout.ts';
import type { OutgoingMail } from '../mail/outbox.ts';

export function invitationMail(options: {
  to: string;
  invitationId: string;
  eventName: string;
  role: TeamRole;
  inviterName: string;
  url: string;
  /** The gate scanner (/gate), where gate staff work once they have accepted. */
  scannerUrl: string;
}): OutgoingMail {
  const role = TEAM_ROLE_LABELS[options.role].toLowerCase();
  const what = {
    co_organiser: 'As co-organiser you can manage the event with its owner.',
    gate_staff: 'As gate staff you can check tickets in for this event.',
    box_office:
      'At the box office you can issue complimentary tickets and record sales at the door for this event.',
  }[options.role];
  return {
    to: options.to,
    subject: `You're invited to ${options.eventName} on Jalsa`,
    ...renderMail({
      heading: `Join ${options.eventName} as ${role}`,
      greeting: 'Hi,',
      paragraphs: [
        `${options.inviterName} invited you to the team of ${options.eventName} on Jalsa, as ${role}.`,
        `${what} Sign in (or sign up) with this e-mail address, then accept.`,
        // Gate staff land on the scanner after accepting; on the day they need its address (issue 35).
        ...(options.role === 'gate_staff'
          ? [
              `On the day, open the gate scanner on your phone, signed in with this address: ${options.scannerUrl}`,
            ]
          : []),
      ],
      action: { label: 'Accept the invitation', url: options.url },
      footnote:
        "This invitation is valid for 7 days. If you weren't expecting it, you can ignore this email.",
    }),
    idempotencyKey: `team-invitation:${options.invitationId}`,
  };
}
