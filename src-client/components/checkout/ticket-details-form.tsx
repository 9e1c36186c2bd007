import type { Dispatch, RefObject, SetStateAction } from 'react';
import type { ticketDetailsFieldProblems } from '../../../shared/checkout-schemas.ts';
import { INDIAN_STATES } from '../../../shared/states.ts';
import { CheckoutCard } from './checkout-card.tsx';
import { EditableField, type EditableFieldHandle } from './editable-field.tsx';
import { RecipientAddressField } from './recipient-address-field.tsx';
import type { BuyerDetails } from './use-buyer-details.ts';

/**
 * "Ticket Details": who the tickets are for (name, e-mail, phone, state), the optional GST invoice fields,
 * and the billing address when the invoice must show it.
 */
export function TicketDetailsForm({
  details,
  setDetails,
  fieldProblems,
  fields,
  stateSelect,
  addressRequired,
  loadFailed,
}: {
  details: BuyerDetails;
  setDetails: Dispatch<SetStateAction<BuyerDetails>>;
  fieldProblems: ReturnType<typeof ticketDetailsFieldProblems>;
  fields: Record<'name' | 'email' | 'phone', RefObject<EditableFieldHandle | null>>;
  stateSelect: RefObject<HTMLSelectElement | null>;
  addressRequired: boolean;
  /** The profile could not be loaded: the buyer types their details in. */
  loadFailed: boolean;
}) {
  return (
    <CheckoutCard id="details-heading" title="Ticket Details">
      {loadFailed && (
        <p role="status" className="mt-2 text-sm text-red-700">
          Failed to load user details. Please refresh the page or fill in your details manually.
        </p>
      )}
      <div className="mt-2">
        <EditableField
          label="Name"
          value={details.name}
          placeholder="Your full name"
          autoComplete="name"
          error={fieldProblems.name}
          ref={fields.name}
          onChange={(name) => setDetails((d) => ({ ...d, name }))}
        />
        <EditableField
          label="Email"
          type="email"
          value={details.email}
          placeholder="you@example.com"
          autoComplete="email"
          error={fieldProblems.email}
          ref={fields.email}
          onChange={(email) => setDetails((d) => ({ ...d, email }))}
        />
        <EditableField
          label="Phone"
          type="tel"
          value={details.phone}
          placeholder="10-digit mobile number"
          autoComplete="tel"
          error={fieldProblems.phone}
          ref={fields.phone}
          onChange={(phone) => setDetails((d) => ({ ...d, phone }))}
        />
        <div className="py-3">
          <label
            htmlFor="checkout-state"
            className="block text-xs font-medium uppercase tracking-wide text-gray-500"
          >
            State
          </label>
          <select
            id="checkout-state"
            ref={stateSelect}
            value={details.state}
            aria-invalid={fieldProblems.state ? true : undefined}
            aria-describedby={fieldProblems.state ? 'checkout-state-error' : undefined}
            onChange={(e) => setDetails((d) => ({ ...d, state: e.target.value }))}
            className="mt-1 w-full rounded-md border border-gray-300 bg-white px-3 py-2"
          >
            <option value="">Select your state</option>
            {INDIAN_STATES.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </select>
          {fieldProblems.state && (
            <p id="checkout-state-error" className="mt-1 text-sm text-red-700">
              {fieldProblems.state}
            </p>
          )}
        </div>
        <details className="py-3" open={Boolean(details.buyerGstin || details.buyerLegalName)}>
          <summary className="cursor-pointer text-sm text-gray-700">
            Need a GST invoice for your business? (optional)
          </summary>
          {(['buyerGstin', 'buyerLegalName'] as const).map((field) => (
            <div key={field} className="pt-3">
              <label
                htmlFor={`checkout-${field}`}
                className="block text-xs font-medium uppercase tracking-wide text-gray-500"
              >
                {field === 'buyerGstin' ? 'GSTIN' : 'Legal name (as registered for GST)'}
              </label>
              <input
                id={`checkout-${field}`}
                value={details[field]}
                maxLength={field === 'buyerGstin' ? 20 : 120}
                autoCapitalize={field === 'buyerGstin' ? 'characters' : undefined}
                aria-invalid={fieldProblems[field] ? true : undefined}
                aria-describedby={fieldProblems[field] ? `checkout-${field}-error` : undefined}
                onChange={(e) => setDetails((d) => ({ ...d, [field]: e.target.value }))}
                className="mt-1 w-full rounded-md border border-gray-300 px-3 py-2"
              />
              {fieldProblems[field] && (
                <p id={`checkout-${field}-error`} className="mt-1 text-sm text-red-700">
                  {fieldProblems[field]}
                </p>
              )}
            </div>
          ))}
        </details>
        {addressRequired && (
          <div className="py-3">
            <RecipientAddressField
              id="checkout-buyerAddress"
              value={details.buyerAddress}
              onChange={(buyerAddress) => setDetails((d) => ({ ...d, buyerAddress }))}
              problem={fieldProblems.buyerAddress}
            />
          </div>
        )}
      </div>
    </CheckoutCard>
  );
}
