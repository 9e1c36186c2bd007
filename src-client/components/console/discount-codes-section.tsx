import { useState } from 'react';
import { formatDateTime, formatInIndia } from '../../../shared/dates.ts';
import {
  CreateDiscountCodeInput,
  type DiscountKind,
  describeDiscount,
} from '../../../shared/discount-schemas.ts';
import { formatPaiseExact, rupeesToPaise } from '../../../shared/money.ts';
import { messageOf } from '../../lib/auth.ts';
import { type RouterOutputs, trpc } from '../../lib/trpc.ts';
import { TextField } from '../auth-fields.tsx';
import { ListSection, SectionForm, useSectionForm } from './list-section.tsx';
import { ScrollTable, Td, Th } from './scroll-table.tsx';

type Code = RouterOutputs['console']['discountCodes'][number];
type TicketTypeChoice = { id: string; name: string; slotStart: string; hidden: boolean };

/** A datetime-local value is read as India time, whatever the browser's zone; stored as UTC. */
const fromIndiaLocal = (v: string) => (v ? new Date(`${v}:00+05:30`).toISOString() : null);
const toIndiaLocal = (iso: string | null) => (iso ? formatInIndia(iso, "yyyy-MM-dd'T'HH:mm") : '');

/**
 * Issue 40: the event's discount codes on its Sales page, with their uses and the revenue each gave
 * away (one definition, services/discounts/list-discount-codes.ts), and a form to add or change one.
 * The server checks everything again; codes are deactivated, never deleted (bookings name them).
 */
export function DiscountCodesSection({
  eventId,
  ticketTypes,
}: {
  eventId: string;
  ticketTypes: TicketTypeChoice[];
}) {
  const codes = trpc.console.discountCodes.useQuery({ eventId });
  const utils = trpc.useUtils();
  const refresh = () => {
    void utils.console.discountCodes.invalidate({ eventId });
    void utils.console.salesDashboard.invalidate({ eventId });
  };
  const setActive = trpc.console.setDiscountCodeActive.useMutation({ onSuccess: refresh });
  const typeName = new Map(ticketTypes.map((t) => [t.id, t.name]));

  return (
    <ListSection
      id="discount-codes"
      title="Discount codes"
      addLabel="Add a code"
      intro="Taken off each ticket's price before GST and the convenience fee. A use is counted when a buyer holds tickets with the code, and given back if they do not pay or the booking is cancelled. A code can also be an access code: it shows buyers the hidden ticket types it unlocks (send them the event link with ?code=YOURCODE), with or without a discount."
      error={setActive.error ? messageOf(setActive.error) : null}
      items={codes.data}
      emptyText="No codes yet."
      table={(items, edit) => (
        <ScrollTable
          label="Discount codes"
          head={
            <>
              <Th>Code</Th>
              <Th>Discount</Th>
              <Th>Valid</Th>
              <Th right>Uses</Th>
              <Th right>Bookings</Th>
              <Th right>Given away</Th>
              <Th>Actions</Th>
            </>
          }
        >
          {items.map((code) => (
            <tr key={code.id}>
              <th scope="row" className="px-4 py-3 font-mono font-semibold text-gray-900">
                {code.code}
                {!code.isActive && (
                  <span className="block font-sans text-xs font-normal text-gray-600">Deactivated</span>
                )}
              </th>
              <td className="px-4 py-3">
                {describeDiscount(code)}
                <span className="block text-xs text-gray-600">
                  {code.ticketTypeIds
                    ? code.ticketTypeIds.map((id) => typeName.get(id) ?? 'removed type').join(', ')
                    : 'All ticket types'}
                </span>
                {code.unlocksTicketTypeIds && (
                  <span className="block text-xs text-gray-600">
                    Unlocks:{' '}
                    {code.unlocksTicketTypeIds.map((id) => typeName.get(id) ?? 'removed type').join(', ')}
                  </span>
                )}
              </td>
              <td className="px-4 py-3 text-sm">
                {code.validFrom ? `From ${formatDateTime(code.validFrom)}` : 'Now'}
                {code.validUntil ? ` until ${formatDateTime(code.validUntil)}` : ', no end'}
              </td>
              <Td>
                {code.uses}
                {code.maxUses !== null && ` / ${code.maxUses}`}
                {code.maxUsesPerBuyer !== null && (
                  <span className="block text-xs text-gray-600">{code.maxUsesPerBuyer} per buyer</span>
                )}
              </Td>
              <Td>{code.bookings}</Td>
              <Td>{formatPaiseExact(code.discountPaise)}</Td>
              <td className="space-x-3 px-4 py-3 text-sm">
                <button type="button" className="font-semibold underline" onClick={() => edit(code)}>
                  Edit
                </button>
                <button
                  type="button"
                  className="font-semibold underline"
                  disabled={setActive.isPending}
                  onClick={() =>
                    setActive.mutate({ eventId, discountCodeId: code.id, isActive: !code.isActive })
                  }
                >
                  {code.isActive ? 'Deactivate' : 'Activate'}
                </button>
              </td>
            </tr>
          ))}
        </ScrollTable>
      )}
      form={(code, done) => (
        <DiscountCodeForm
          eventId={eventId}
          code={code}
          ticketTypes={ticketTypes}
          onCancel={done}
          onSaved={() => {
            done();
            refresh();
          }}
        />
      )}
    />
  );
}

function DiscountCodeForm({
  eventId,
  code,
  ticketTypes,
  onCancel,
  onSaved,
}: {
  eventId: string;
  code: Code | null;
  ticketTypes: TicketTypeChoice[];
  onCancel: () => void;
  onSaved: () => void;
}) {
  const create = trpc.console.createDiscountCode.useMutation();
  const update = trpc.console.updateDiscountCode.useMutation();
  const [name, setName] = useState(code?.code ?? '');
  const [kind, setKind] = useState<DiscountKind>(code?.kind ?? 'percent');
  const [percent, setPercent] = useState(code?.percentOff != null ? String(code.percentOff) : '');
  const [rupees, setRupees] = useState(code?.amountOffPaise != null ? String(code.amountOffPaise / 100) : '');
  const [types, setTypes] = useState<string[] | null>(code?.ticketTypeIds ?? null);
  const [unlocks, setUnlocks] = useState<string[]>(code?.unlocksTicketTypeIds ?? []);
  const hiddenTypes = ticketTypes.filter((t) => t.hidden || unlocks.includes(t.id));
  const [validFrom, setValidFrom] = useState(toIndiaLocal(code?.validFrom ?? null));
  const [validUntil, setValidUntil] = useState(toIndiaLocal(code?.validUntil ?? null));
  const [maxUses, setMaxUses] = useState(code?.maxUses != null ? String(code.maxUses) : '');
  const [perBuyer, setPerBuyer] = useState(code?.maxUsesPerBuyer != null ? String(code.maxUsesPerBuyer) : '');
  const { errors, formError, submit } = useSectionForm();
  const optionalNumber = (v: string) => (v.trim() === '' ? null : Number(v));

  const onSubmit = async (e: React.FormEvent) => {
    e.preventDefault();
    const fields = {
      code: name,
      kind,
      percentOff: kind === 'percent' ? optionalNumber(percent) : null,
      amountOffPaise: kind === 'fixed' && rupees.trim() !== '' ? rupeesToPaise(Number(rupees)) : null,
      ticketTypeIds: types && types.length > 0 ? types : null,
      validFrom: fromIndiaLocal(validFrom),
      validUntil: fromIndiaLocal(validUntil),
      maxUses: optionalNumber(maxUses),
      maxUsesPerBuyer: optionalNumber(perBuyer),
      unlocksTicketTypeIds: unlocks.length > 0 ? unlocks : null,
    };
    const saved = await submit(CreateDiscountCodeInput.safeParse({ eventId, code: fields }), -1, (input) =>
      code
        ? update.mutateAsync({ eventId, discountCodeId: code.id, code: input.code })
        : create.mutateAsync(input),
    );
    if (saved) onSaved();
  };

  return (
    <SectionForm
      title={code ? `Edit ${code.code}` : 'New discount code'}
      onSubmit={onSubmit}
      formError={formError}
      busy={create.isPending || update.isPending}
      submitLabel={code ? 'Save code' : 'Add code'}
      onCancel={onCancel}
    >
      <TextField
        label="Code"
        hint="Letters, digits, - and _. Buyers may type it in any case."
        value={name}
        error={errors.code}
        onChange={(e) => setName(e.target.value)}
      />
      <fieldset>
        <legend className="font-medium">Discount</legend>
        <label className="mr-4 inline-flex items-center gap-2">
          <input type="radio" checked={kind === 'percent'} onChange={() => setKind('percent')} />
          Percentage
        </label>
        <label className="mr-4 inline-flex items-center gap-2">
          <input type="radio" checked={kind === 'fixed'} onChange={() => setKind('fixed')} />
          Amount off each ticket
        </label>
        <label className="inline-flex items-center gap-2">
          <input type="radio" checked={kind === 'none'} onChange={() => setKind('none')} />
          No discount (access code only)
        </label>
      </fieldset>
      {kind === 'none' ? null : kind === 'percent' ? (
        <TextField
          label="Percent off"
          type="number"
          inputMode="numeric"
          min={1}
          max={100}
          value={percent}
          error={errors.percentOff}
          onChange={(e) => setPercent(e.target.value)}
        />
      ) : (
        <TextField
          label="Rupees off each ticket"
          type="number"
          inputMode="decimal"
          min={0.01}
          step={0.01}
          value={rupees}
          error={errors.amountOffPaise}
          onChange={(e) => setRupees(e.target.value)}
        />
      )}
      <fieldset>
        <legend className="font-medium">Ticket types</legend>
        <label className="flex items-center gap-2">
          <input
            type="checkbox"
            checked={types === null}
            onChange={(e) => setTypes(e.target.checked ? null : [])}
          />
          All ticket types
        </label>
        {types !== null &&
          ticketTypes.map((type) => (
            <label key={type.id} className="flex items-center gap-2">
              <input
                type="checkbox"
                checked={types.includes(type.id)}
                onChange={(e) =>
                  setTypes(e.target.checked ? [...types, type.id] : types.filter((id) => id !== type.id))
                }
              />
              {type.name} <span className="text-xs text-gray-600">{formatDateTime(type.slotStart)}</span>
            </label>
          ))}
        {errors.ticketTypeIds && <p className="text-sm text-red-700">{errors.ticketTypeIds}</p>}
      </fieldset>
      <fieldset>
        <legend className="font-medium">Unlocks hidden ticket types</legend>
        {hiddenTypes.length === 0 ? (
          <p className="text-sm text-gray-600">
            No hidden ticket types: mark one “Hidden: sold only with an access code” in the event editor.
          </p>
        ) : (
          hiddenTypes.map((type) => (
            <label key={type.id} className="flex items-center gap-2">
              <input
                type="checkbox"
                checked={unlocks.includes(type.id)}
                onChange={(e) =>
                  setUnlocks(
                    e.target.checked ? [...unlocks, type.id] : unlocks.filter((id) => id !== type.id),
                  )
                }
              />
              {type.name} <span className="text-xs text-gray-600">{formatDateTime(type.slotStart)}</span>
            </label>
          ))
        )}
        {errors.unlocksTicketTypeIds && <p className="text-sm text-red-700">{errors.unlocksTicketTypeIds}</p>}
      </fieldset>
      <TextField
        label="Valid from (India time, optional)"
        type="datetime-local"
        value={validFrom}
        error={errors.validFrom}
        onChange={(e) => setValidFrom(e.target.value)}
      />
      <TextField
        label="Valid until (India time, optional)"
        type="datetime-local"
        value={validUntil}
        error={errors.validUntil}
        onChange={(e) => setValidUntil(e.target.value)}
      />
      <TextField
        label="Uses in all (optional)"
        type="number"
        inputMode="numeric"
        min={1}
        value={maxUses}
        error={errors.maxUses}
        onChange={(e) => setMaxUses(e.target.value)}
      />
      <TextField
        label="Uses per buyer (optional)"
        type="number"
        inputMode="numeric"
        min={1}
        value={perBuyer}
        error={errors.maxUsesPerBuyer}
        onChange={(e) => setPerBuyer(e.target.value)}
      />
    </SectionForm>
  );
}
