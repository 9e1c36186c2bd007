import { useWatch } from 'react-hook-form';
import { REFUND_RULES, type RefundRule } from '../../../shared/refund-policy.ts';
import { SelectField, TextField } from '../auth-fields.tsx';
import { type DetailsPartProps, emptyToNull, errorOf, numberOrDefault } from './event-details-part.ts';

const REFUND_RULE_LABELS: Record<RefundRule, string> = {
  full: 'Full amount',
  minus_fee: 'All but the convenience fee',
  percent: 'A percentage',
};

/** What a buyer may do with a booking: cancel it (until when, for how much) and give it away. */
export function EventRulesFields({
  form,
  field,
  onEdit,
}: DetailsPartProps & { /** The checkbox's edit: the 'Saved.' goes. */ onEdit: () => void }) {
  const refundRule = useWatch({ control: form.control, name: 'refundRule' });
  const transfersAllowed = useWatch({ control: form.control, name: 'transfersAllowed' });
  return (
    <>
      <fieldset className="grid gap-4 sm:grid-cols-3">
        <legend className="mb-2 text-sm font-semibold text-gray-900">
          Buyer cancellation (refundable ticket types only)
        </legend>
        <TextField
          label="Cancel until (hours before the show)"
          inputMode="numeric"
          error={errorOf(form, 'refundCutoffHours')}
          {...form.register('refundCutoffHours', { setValueAs: numberOrDefault })}
        />
        <SelectField
          label="Refund"
          placeholder="Choose"
          options={REFUND_RULES}
          optionLabels={REFUND_RULE_LABELS}
          {...field('refundRule')}
        />
        {refundRule === 'percent' && (
          <TextField
            label="Refund (%)"
            inputMode="numeric"
            error={errorOf(form, 'refundPercent')}
            {...form.register('refundPercent', { setValueAs: emptyToNull })}
          />
        )}
      </fieldset>
      <fieldset className="grid gap-4 sm:grid-cols-3">
        <legend className="mb-2 text-sm font-semibold text-gray-900">Ticket transfers</legend>
        <label className="flex items-center gap-2 self-end pb-2 text-sm sm:col-span-2">
          <input type="checkbox" {...form.register('transfersAllowed', { onChange: onEdit })} /> Buyers may
          give their booking to someone else (the old QR stops working)
        </label>
        {transfersAllowed !== false && (
          <TextField
            label="Transfers per booking"
            inputMode="numeric"
            error={errorOf(form, 'maxTransfersPerBooking')}
            {...form.register('maxTransfersPerBooking', { setValueAs: numberOrDefault })}
          />
        )}
      </fieldset>
    </>
  );
}
