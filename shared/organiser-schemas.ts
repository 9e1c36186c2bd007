import { z } from 'zod';
import { emailField } from './auth-schemas.ts';
import { CITIES, findCity } from './cities.ts';

/** An account's installation-wide role; 'none' is everyone else (a buyer). */
export const ACCOUNT_ROLES = ['admin', 'organiser', 'none'] as const;
export type AccountRole = (typeof ACCOUNT_ROLES)[number];

/** A person's role on one event's team. The owner is not a team role: it is the event's `owner_id`. */
export const TEAM_ROLES = ['co_organiser', 'gate_staff', 'box_office'] as const;
export type TeamRole = (typeof TEAM_ROLES)[number];

/** What a person may do with one event, as the event-scoped middleware decides it. */
export type EventRole = 'owner' | TeamRole | 'admin';

export const TEAM_ROLE_LABELS: Record<TeamRole, string> = {
  co_organiser: 'Co-organiser',
  gate_staff: 'Gate staff',
  box_office: 'Box office',
};

export const ORGANISER_REQUEST_STATUSES = ['pending', 'approved', 'declined'] as const;
export type OrganiserRequestStatus = (typeof ORGANISER_REQUEST_STATUSES)[number];

export const ORGANISER_MESSAGES = {
  organisationRequired: 'Organisation name is required',
  organisationLong: 'Organisation name must be at most 120 characters',
  phoneInvalid: 'Please enter a valid 10-digit mobile number',
  cityRequired: 'Please choose a city',
  whatRequired: 'Tell us what kind of events you run',
  whatLong: 'Please keep this under 1000 characters',
  gstinInvalid: 'Please enter a valid 15-character GSTIN (e.g. 27AAPFU0939F1ZV)',
  alreadyPending: 'Your request is already waiting for an admin.',
  alreadyOrganiser: 'You can already list events.',
  requestDecided: 'This request has already been decided.',
  requestNotFound: 'Request not found',
  notAllowed: 'You are not allowed to do this.',
  eventNotFound: 'Event not found',
  invitationInvalid: 'This invitation link is invalid or has expired.',
  invitationOtherEmail:
    'This invitation was sent to another e-mail address. Sign in with that address to accept it.',
  invitationUsed: 'This invitation has already been accepted.',
  alreadyOnTeam: 'That person is already on this event’s team.',
  inviteOwner: 'The owner is already in charge of this event.',
  memberNotFound: 'Team member not found',
  noAccount: 'No account has that e-mail address. Ask them to sign up first.',
  adminRoleViaScript: 'Admins are changed with `npm run user:role` on the server.',
} as const;

const GSTIN_SHAPE = /^(0[1-9]|[12]\d|3[0-8]|97|99)[A-Z]{5}\d{4}[A-Z][1-9A-Z]Z[0-9A-Z]$/;
const GSTIN_ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ';

/**
 * A GSTIN's shape (state code 01–38, 97 or 99; the holder's PAN; entity number; 'Z'; check character)
 * and its check character (the GSTN's mod-36 scheme), so a typo is caught in the form.
 */
export function isValidGstin(value: string): boolean {
  if (!GSTIN_SHAPE.test(value)) return false;
  let sum = 0;
  for (let i = 0; i < 14; i++) {
    const product = GSTIN_ALPHABET.indexOf(value[i]!) * (i % 2 === 0 ? 1 : 2);
    sum += Math.floor(product / 36) + (product % 36);
  }
  return GSTIN_ALPHABET[(36 - (sum % 36)) % 36] === value[14];
}

/** The city list's names, for the form's drop-down. */
export const CITY_NAMES = CITIES.map((c) => c.name);

/** "List your Event" (issue 14): the same schema checks the form and the procedure's input. */
export const OrganiserRequestInput = z.object({
  organisationName: z
    .string()
    .trim()
    .min(1, ORGANISER_MESSAGES.organisationRequired)
    .max(120, ORGANISER_MESSAGES.organisationLong),
  contactPhone: z
    .string()
    .trim()
    .max(20, ORGANISER_MESSAGES.phoneInvalid)
    .transform((v) => v.replace(/[\s-]/g, '').replace(/^(\+91|0)/, ''))
    .refine((v) => /^[6-9]\d{9}$/.test(v), ORGANISER_MESSAGES.phoneInvalid),
  city: z
    .string()
    .trim()
    .max(80, ORGANISER_MESSAGES.cityRequired)
    .refine((v) => findCity(v) !== undefined, ORGANISER_MESSAGES.cityRequired)
    .transform((v) => findCity(v)!.name),
  whatTheyRun: z
    .string()
    .trim()
    .min(1, ORGANISER_MESSAGES.whatRequired)
    .max(1000, ORGANISER_MESSAGES.whatLong),
  gstin: z
    .string()
    .trim()
    .max(15, ORGANISER_MESSAGES.gstinInvalid)
    .transform((v) => v.toUpperCase())
    .refine((v) => v === '' || isValidGstin(v), ORGANISER_MESSAGES.gstinInvalid)
    .default(''),
});
export type OrganiserRequestInput = z.input<typeof OrganiserRequestInput>;

const idField = z.string().trim().min(1).max(100);

export const OrganiserRequestIdInput = z.object({ requestId: idField });

/** An admin sets an account's role from the admin page; admins themselves are changed by the script. */
export const GrantRoleInput = z.object({
  email: emailField,
  role: z.enum(['organiser', 'none']),
});
export type GrantRoleInput = z.input<typeof GrantRoleInput>;

export const EventIdInput = z.object({ eventId: idField });

/** The invite form; the procedure adds the event's id (EventIdInput). */
export const InviteTeamMemberInput = z.object({
  email: emailField,
  role: z.enum(TEAM_ROLES, 'Choose a role'),
});
export type InviteTeamMemberInput = z.input<typeof InviteTeamMemberInput>;

export const TeamMemberIdInput = z.object({ memberUserId: idField });
export const InvitationIdInput = z.object({ invitationId: idField });

export const InvitationTokenInput = z.object({ token: z.string().trim().min(1).max(100) });
