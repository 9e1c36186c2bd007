import { Link } from '@tanstack/react-router';
import { useId, useState } from 'react';
import { ticketDetailsFieldProblems } from '../../shared/checkout-schemas.ts';
import { perOrderMaxOf } from '../../shared/per-order-max.ts';
import type { CheckoutTaxes } from '../../shared/pricing.ts';
import { invoiceTaxableValuePaise, recipientAddressRequired } from '../../shared/recipient-address.ts';
import { INDIAN_STATES, isIndianState } from '../../shared/states.ts';
import { useCurrentUser } from '../lib/auth.ts';
import { serverRefusalOf } from '../lib/server-field-errors.ts';
import { trpc } from '../lib/trpc.ts';
import { RecipientAddressField } from './checkout/recipient-address-field.tsx';

type Details = { name: string; email: string; phone: string; state: string; buyerAddress: string };
/** The fields the form shows: a server message about anything else goes to the form's own line. */
const DETAIL_FIELDS = ['name', 'email', 'phone', 'state', 'buyerAddress'] as const;

/**
 * Under a sold-out ticket type (issue 19): "Join waiting list" opens a small form (how many, and the
 * contact details the booking will carry, checked by the checkout's own schema), then says the place
 * in line. Signed-out visitors are asked to sign in first; someone already on it sees their place. The
 * offer is invoiced with these details, so the billing address is asked for when Rule 46 needs it on
 * that invoice, by the checkout's rule (shared/recipient-address.ts), as the server decides at join.
 */
export function JoinWaitingList({
  ticketTypeId,
  ticketTypeName,
  maxPerOrder,
  pricePaise,
  personsPerTicket,
  taxes,
}: {
  ticketTypeId: string;
  ticketTypeName: string;
  maxPerOrder: number;
  pricePaise: number;
  personsPerTicket: number;
  taxes: CheckoutTaxes;
}) {
  const me = useCurrentUser();
  const mine = trpc.waitlist.mine.useQuery(undefined, { enabled: Boolean(me.data) });
  const utils = trpc.useUtils();
  const join = trpc.waitlist.join.useMutation({ onSuccess: () => utils.waitlist.mine.invalidate() });
  const [open, setOpen] = useState(false);
  const [quantity, setQuantity] = useState(1);
  const [details, setDetails] = useState<Details | null>(null);
  const [checked, setChecked] = useState(false);
  const formId = useId();

  if (me.isPending) return null;
  if (!me.data) {
    return (
      <p className="mt-3 text-sm">
        <Link
          to="/login"
          search={{ redirect: window.location.pathname }}
          className="font-semibold text-brand-700 underline"
        >
          Sign in to join the waiting list
        </Link>
      </p>
    );
  }
  const entry = mine.data?.find((e) => e.ticketTypeId === ticketTypeId);
  if (entry || join.data) {
    const place = join.data?.place ?? entry?.place;
    return (
      <p className="mt-3 rounded-md bg-green-50 px-3 py-2 text-sm font-semibold text-green-900" role="status">
        {entry?.status === 'offered' ? (
          <>
            Seats are held for you.{' '}
            <Link
              to="/waitlist/offers/$entryId"
              params={{ entryId: entry.entryId }}
              className="text-brand-700 underline"
            >
              Pay now
            </Link>
          </>
        ) : (
          <>You're on the waiting list (#{place}). We'll e-mail you when seats come back.</>
        )}
      </p>
    );
  }
  if (!open) {
    return (
      <button
        type="button"
        onClick={() => setOpen(true)}
        className="mt-3 rounded-md bg-brand-600 px-4 py-2 text-sm font-semibold text-white hover:bg-brand-700"
      >
        Join waiting list
      </button>
    );
  }
  const form: Details = details ?? {
    name: me.data.name ?? '',
    email: me.data.email ?? '',
    phone: me.data.phone ?? '',
    state: me.data.state && isIndianState(me.data.state) ? me.data.state : '',
    buyerAddress: '',
  };
  const addressRequired = recipientAddressRequired({
    taxableValuePaise: invoiceTaxableValuePaise([{ pricePaise, quantity, personsPerTicket }], [], taxes),
  });
  const refusal = serverRefusalOf(join.error, { fields: DETAIL_FIELDS });
  const problems = {
    ...(checked ? ticketDetailsFieldProblems(form, { addressRequired }) : {}),
    ...refusal.fields,
  };
  const set = (field: keyof Details, value: string) => setDetails({ ...form, [field]: value });
  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    setChecked(true);
    if (Object.keys(ticketDetailsFieldProblems(form, { addressRequired })).length > 0) return;
    const { buyerAddress, ...contact } = form;
    join.mutate({
      ticketTypeId,
      quantity,
      details: addressRequired ? { ...contact, buyerAddress } : contact,
    });
  };
  const max = perOrderMaxOf({ maxPerOrder });
  const field = (
    name: Exclude<keyof Details, 'buyerAddress'>,
    label: string,
    type = 'text',
    autoComplete?: string,
  ) => (
    <div>
      <label htmlFor={`${formId}-${name}`} className="block text-xs font-medium text-gray-600">
        {label}
      </label>
      {name === 'state' ? (
        <select
          id={`${formId}-${name}`}
          value={form.state}
          onChange={(e) => set('state', e.target.value)}
          className="mt-1 w-full rounded-md border border-gray-300 bg-white px-3 py-2 text-sm"
        >
          <option value="">Select your state</option>
          {INDIAN_STATES.map((s) => (
            <option key={s} value={s}>
              {s}
            </option>
          ))}
        </select>
      ) : (
        <input
          id={`${formId}-${name}`}
          type={type}
          value={form[name]}
          autoComplete={autoComplete}
          aria-invalid={problems[name] ? true : undefined}
          onChange={(e) => set(name, e.target.value)}
          className="mt-1 w-full rounded-md border border-gray-300 px-3 py-2 text-sm"
        />
      )}
      {problems[name] && <p className="mt-1 text-xs text-red-700">{problems[name]}</p>}
    </div>
  );
  return (
    <form
      onSubmit={submit}
      aria-label={`Join the waiting list for ${ticketTypeName}`}
      className="mt-3 space-y-3 rounded-lg border border-gray-200 bg-gray-50 p-3"
      noValidate
    >
      <div>
        <label htmlFor={`${formId}-quantity`} className="block text-xs font-medium text-gray-600">
          Tickets wanted
        </label>
        <select
          id={`${formId}-quantity`}
          value={quantity}
          onChange={(e) => setQuantity(Number(e.target.value))}
          className="mt-1 rounded-md border border-gray-300 bg-white px-3 py-2 text-sm"
        >
          {Array.from({ length: max }, (_, i) => i + 1).map((n) => (
            <option key={n} value={n}>
              {n}
            </option>
          ))}
        </select>
      </div>
      <div className="grid gap-3 sm:grid-cols-2">
        {field('name', 'Name', 'text', 'name')}
        {field('email', 'Email', 'email', 'email')}
        {field('phone', 'Phone', 'tel', 'tel')}
        {field('state', 'State')}
      </div>
      {addressRequired && (
        <RecipientAddressField
          id={`${formId}-buyerAddress`}
          value={form.buyerAddress}
          onChange={(value) => set('buyerAddress', value)}
          problem={problems.buyerAddress}
          labelClassName="block text-xs font-medium text-gray-600"
          inputClassName="mt-1 w-full rounded-md border border-gray-300 px-3 py-2 text-sm"
        />
      )}
      {refusal.form && (
        <p className="text-sm text-red-700" role="alert">
          {refusal.form}
        </p>
      )}
      <p className="text-xs text-gray-600">
        When seats come back, we hold them for you and e-mail a link to pay. You pay nothing now.
      </p>
      <button
        type="submit"
        disabled={join.isPending}
        className="rounded-md bg-brand-600 px-4 py-2 text-sm font-semibold text-white hover:bg-brand-700 disabled:opacity-70"
      >
        {join.isPending ? 'Joining...' : 'Join waiting list'}
      </button>
    </form>
  );
}
