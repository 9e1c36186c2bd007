/**
 * "Billing address (printed on your GST invoice)": asked for exactly when Rule 46 needs it on the
 * organiser's invoice (shared/recipient-address.ts). The checkout's Ticket Details and the waiting list's
 * join form show this same field, decided by the same rule the server applies.
 */
export function RecipientAddressField({
  id,
  value,
  onChange,
  problem,
  labelClassName = 'block text-xs font-medium uppercase tracking-wide text-gray-500',
  inputClassName = 'mt-1 w-full rounded-md border border-gray-300 px-3 py-2',
}: {
  id: string;
  value: string;
  onChange: (value: string) => void;
  problem: string | undefined;
  labelClassName?: string;
  inputClassName?: string;
}) {
  return (
    <div>
      <label htmlFor={id} className={labelClassName}>
        Billing address (printed on your GST invoice)
      </label>
      <textarea
        id={id}
        value={value}
        maxLength={300}
        rows={2}
        autoComplete="street-address"
        // A business's invoice needs the PIN code too (the IRP's), so the example ends with one.
        placeholder="Street, area, city and PIN code"
        aria-invalid={problem ? true : undefined}
        aria-describedby={problem ? `${id}-error` : undefined}
        onChange={(e) => onChange(e.target.value)}
        className={inputClassName}
      />
      {problem && (
        <p id={`${id}-error`} className="mt-1 text-sm text-red-700">
          {problem}
        </p>
      )}
    </div>
  );
}
