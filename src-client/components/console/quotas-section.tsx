import { useEffect, useRef, useState } from 'react';
import { formatDateTime } from '../../../shared/dates.ts';
import { formatCount } from '../../../shared/money.ts';
import { CreateQuotaInput } from '../../../shared/quota-schemas.ts';
import { messageOf } from '../../lib/auth.ts';
import { type RouterOutputs, trpc } from '../../lib/trpc.ts';
import { TextField } from '../auth-fields.tsx';
import { ListSection, SectionForm, useSectionForm } from './list-section.tsx';
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
  const slotStart = new Map(slots.map((s) => [s.id, s.startTime]));

  return (
    <ListSection
      id="quotas"
      title="Shared capacity"
      addLabel="Add shared capacity"
      intro="Seats several ticket types sell from together: a hall of 940 whatever mix of Stalls and Balcony sells. A type shows Sold Out when its shared capacity is gone, even if it has seats of its own. Choose types of one slot, or of several slots to share the seats across shows. Copying ticket types to other slots gives each slot its own."
      error={remove.error ? messageOf(remove.error) : null}
      items={quotas.data}
      emptyText="No shared capacity: each ticket type sells up to its own count."
      table={(items, edit) => (
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
          {items.map((quota) => (
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
              <Td>{formatCount(quota.capacity)}</Td>
              <Td>{formatCount(quota.sold)}</Td>
              <Td>{formatCount(quota.held)}</Td>
              <Td>{formatCount(quota.left)}</Td>
              <td className="space-x-3 px-4 py-3 text-sm">
                <button type="button" className="font-semibold underline" onClick={() => edit(quota)}>
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
      form={(quota, done) => (
        <QuotaForm
          eventId={eventId}
          quota={quota}
          slots={slots}
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

function QuotaForm({
  eventId,
  quota,
  slots,
  onCancel,
  onSaved,
}: {
  eventId: string;
  quota: Quota | null;
  slots: SlotChoice[];
  onCancel: () => void;
  onSaved: () => void;
}) {
  const create = trpc.console.createQuota.useMutation();
  const update = trpc.console.updateQuota.useMutation();
  const [name, setName] = useState(quota?.name ?? '');
  const [capacity, setCapacity] = useState(quota ? String(quota.capacity) : '');
  const [types, setTypes] = useState<string[]>(quota?.ticketTypes.map((t) => t.id) ?? []);
  const { errors, formError, submit } = useSectionForm();

  const onSubmit = async (e: React.FormEvent) => {
    e.preventDefault();
    const slotIds = slots.filter((s) => s.tickets.some((t) => types.includes(t.id))).map((s) => s.id);
    const fields = {
      name,
      capacity: capacity.trim() === '' ? Number.NaN : Number(capacity),
      slotIds,
      ticketTypeIds: types,
    };
    const saved = await submit(CreateQuotaInput.safeParse({ eventId, quota: fields }), 1, (input) =>
      quota
        ? update.mutateAsync({ eventId, quotaId: quota.id, quota: input.quota })
        : create.mutateAsync(input),
    );
    if (saved) onSaved();
  };

  return (
    <SectionForm
      title={quota ? `Edit ${quota.name}` : 'New shared capacity'}
      onSubmit={onSubmit}
      formError={formError}
      busy={create.isPending || update.isPending}
      submitLabel={quota ? 'Save' : 'Add shared capacity'}
      onCancel={onCancel}
    >
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
    </SectionForm>
  );
}
