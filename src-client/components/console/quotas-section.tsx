import { useEffect, useRef, useState } from 'react';
import { formatDateTime } from '../../../shared/dates.ts';
import { CreateQuotaInput } from '../../../shared/quota-schemas.ts';
import { messageOf } from '../../lib/auth.ts';
import { serverRefusalOf, zodFieldErrors } from '../../lib/server-field-errors.ts';
import { type RouterOutputs, trpc } from '../../lib/trpc.ts';
import { FormError, SubmitButton, TextField } from '../auth-fields.tsx';
import { ScrollTable, Td, Th } from './scroll-table.tsx';

type Quota = RouterOutputs['console']['quotas'][number];
type SlotChoice = { id: string; startTime: string; tickets: { id: string; name: string }[] };

/**
 * Issue 40: the event's shared capacities in the editor, each with its sold, held and left (the server
 * counts them, services/quotas/list-quotas.ts), and a form to add or change one. The slots are the
 * chosen ticket types' slots; the server checks everything again.
 */
export function QuotasSection({
  eventId,
  version,
  slots,
}: {
  eventId: string;
  /** The event's version: a copy or a new ticket type may have changed the quotas, so read them again. */
  version: number;
  slots: SlotChoice[];
}) {
  const quotas = trpc.console.quotas.useQuery({ eventId });
  const utils = trpc.useUtils();
  const refresh = () => void utils.console.quotas.invalidate({ eventId });
  const shownVersion = useRef(version);
  useEffect(() => {
    if (shownVersion.current === version) return;
    shownVersion.current = version;
    void utils.console.quotas.invalidate({ eventId });
  }, [version, eventId, utils]);
  const remove = trpc.console.removeQuota.useMutation({ onSuccess: refresh });
  const [editing, setEditing] = useState<Quota | 'new' | null>(null);
  const slotStart = new Map(slots.map((s) => [s.id, s.startTime]));

  return (
    <section aria-labelledby="quotas-heading">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id="quotas-heading" className="text-xl font-bold">
          Shared capacity
        </h2>
        {editing === null && (
          <button
            type="button"
            className="rounded-lg bg-gray-900 px-4 py-2 text-sm font-semibold text-white"
            onClick={() => setEditing('new')}
          >
            Add shared capacity
          </button>
        )}
      </div>
      <p className="mt-1 text-sm text-gray-600">
        Seats several ticket types sell from together: a hall of 940 whatever mix of Stalls and Balcony sells.
        A type shows Sold Out when its shared capacity is gone, even if it has seats of its own. Choose types
        of one slot, or of several slots to share the seats across shows. Copying ticket types to other slots
        gives each slot its own.
      </p>
      <FormError message={remove.error ? messageOf(remove.error) : null} />
      {quotas.data && quotas.data.length > 0 && (
        <ScrollTable
          label="Shared capacity"
          head={
            <>
              <Th>Name</Th>
              <Th>Ticket types</Th>
              <Th right>Capacity</Th>
              <Th right>Sold</Th>
              <Th right>Held</Th>
              <Th right>Left</Th>
              <Th>Actions</Th>
            </>
          }
        >
          {quotas.data.map((quota) => (
            <tr key={quota.id}>
              <th scope="row" className="px-4 py-3 font-semibold text-gray-900">
                {quota.name}
              </th>
              <td className="px-4 py-3 text-sm">
                {quota.ticketTypes.map((type) => (
                  <span key={type.id} className="block">
                    {type.name}{' '}
                    <span className="text-xs text-gray-600">
                      {formatDateTime(slotStart.get(type.slotId) ?? '')}
                    </span>
                  </span>
                ))}
              </td>
              <Td>{quota.capacity.toLocaleString('en-IN')}</Td>
              <Td>{quota.sold.toLocaleString('en-IN')}</Td>
              <Td>{quota.held.toLocaleString('en-IN')}</Td>
              <Td>{quota.left.toLocaleString('en-IN')}</Td>
              <td className="space-x-3 px-4 py-3 text-sm">
                <button type="button" className="font-semibold underline" onClick={() => setEditing(quota)}>
                  Edit
                </button>
                <button
                  type="button"
                  className="font-semibold underline"
                  disabled={remove.isPending}
                  onClick={() => remove.mutate({ eventId, quotaId: quota.id })}
                >
                  Remove
                </button>
              </td>
            </tr>
          ))}
        </ScrollTable>
      )}
      {quotas.data?.length === 0 && editing === null && (
        <p className="mt-2 text-gray-600">No shared capacity: each ticket type sells up to its own count.</p>
      )}
      {editing !== null && (
        <QuotaForm
          key={editing === 'new' ? 'new' : editing.id}
          eventId={eventId}
          quota={editing === 'new' ? null : editing}
          slots={slots}
          onDone={() => {
            setEditing(null);
            refresh();
          }}
        />
      )}
    </section>
  );
}

function QuotaForm({
  eventId,
  quota,
  slots,
  onDone,
}: {
  eventId: string;
  quota: Quota | null;
  slots: SlotChoice[];
  onDone: () => void;
}) {
  const create = trpc.console.createQuota.useMutation();
  const update = trpc.console.updateQuota.useMutation();
  const [name, setName] = useState(quota?.name ?? '');
  const [capacity, setCapacity] = useState(quota ? String(quota.capacity) : '');
  const [types, setTypes] = useState<string[]>(quota?.ticketTypes.map((t) => t.id) ?? []);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string | null>(null);

  const onSubmit = async (e: React.FormEvent) => {
    e.preventDefault();
    setErrors({});
    setFormError(null);
    const slotIds = slots.filter((s) => s.tickets.some((t) => types.includes(t.id))).map((s) => s.id);
    const fields = {
      name,
      capacity: capacity.trim() === '' ? Number.NaN : Number(capacity),
      slotIds,
      ticketTypeIds: types,
    };
    // The same schema the server runs, for the same messages before the round trip.
    const parsed = CreateQuotaInput.safeParse({ eventId, quota: fields });
    if (!parsed.success) {
      return setErrors(zodFieldErrors(parsed.error.issues, 1));
    }
    try {
      if (quota) await update.mutateAsync({ eventId, quotaId: quota.id, quota: parsed.data.quota });
      else await create.mutateAsync(parsed.data);
      onDone();
    } catch (error) {
      const refusal = serverRefusalOf(error);
      setErrors(refusal.fields);
      setFormError(refusal.form);
    }
  };

  return (
    <form
      onSubmit={onSubmit}
      noValidate
      className="mt-4 max-w-md space-y-4 rounded-xl border border-gray-200 p-4"
    >
      <h3 className="font-bold">{quota ? `Edit ${quota.name}` : 'New shared capacity'}</h3>
      <TextField
        label="Name"
        hint="For you and your team, for instance Hall or Ground."
        value={name}
        error={errors.name}
        onChange={(e) => setName(e.target.value)}
      />
      <TextField
        label="Capacity"
        type="number"
        inputMode="numeric"
        min={1}
        value={capacity}
        error={errors.capacity}
        onChange={(e) => setCapacity(e.target.value)}
      />
      <fieldset>
        <legend className="font-medium">Ticket types that share it</legend>
        {slots.map((slot) => (
          <div key={slot.id} className="mt-2">
            <p className="text-xs text-gray-600">{formatDateTime(slot.startTime)}</p>
            {slot.tickets.map((type) => (
              <label key={type.id} className="flex items-center gap-2">
                <input
                  type="checkbox"
                  checked={types.includes(type.id)}
                  onChange={(e) =>
                    setTypes(e.target.checked ? [...types, type.id] : types.filter((id) => id !== type.id))
                  }
                />
                {type.name}
              </label>
            ))}
          </div>
        ))}
        {/* No type chosen means no slot either: the types' message says what to do. */}
        {(errors.ticketTypeIds ?? errors.slotIds) && (
          <p className="text-sm text-red-700">{errors.ticketTypeIds ?? errors.slotIds}</p>
        )}
      </fieldset>
      <FormError message={formError} />
      <div className="flex gap-3">
        <SubmitButton busy={create.isPending || update.isPending} busyText="Saving...">
          {quota ? 'Save' : 'Add shared capacity'}
        </SubmitButton>
        <button type="button" className="font-semibold underline" onClick={onDone}>
          Cancel
        </button>
      </div>
    </form>
  );
}
