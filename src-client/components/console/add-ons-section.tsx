import { useState } from 'react';
import { CreateAddOnInput } from '../../../shared/add-on-schemas.ts';
import { formatDateTime } from '../../../shared/dates.ts';
import { GST_RATE_SCHEDULE } from '../../../shared/gst.ts';
import { formatCount, formatPaiseExact, rupeesToPaise } from '../../../shared/money.ts';
import { type RouterOutputs, trpc } from '../../lib/trpc.ts';
import { TextField } from '../auth-fields.tsx';
import { ListSection, SectionForm, useSectionForm } from './list-section.tsx';
import { ScrollTable, Td, Th } from './scroll-table.tsx';

type AddOn = RouterOutputs['console']['addOns'][number];
type SlotChoice = { id: string; startTime: string; tickets: { id: string; name: string }[] };
type VariantDraft = { id?: string; name: string; stock: string };
/** The figures' cell (scroll-table.tsx's Td), for the add-on's rows that span its variants. */
const CELL = 'px-4 py-3 text-right tabular-nums';

/**
 * Issue 40 (ADR 0041): the event's add-ons in the editor (parking, a T-shirt in sizes, a food voucher),
 * each variant with its sold, held and left (services/add-ons/list-add-ons.ts), and a form to add or
 * change one: its own price, GST rate and HSN/SAC code. The server checks everything again.
 */
export function AddOnsSection({ eventId, slots }: { eventId: string; slots: SlotChoice[] }) {
  const addOns = trpc.console.addOns.useQuery({ eventId });
  const utils = trpc.useUtils();
  const typeName = new Map(slots.flatMap((s) => s.tickets.map((t) => [t.id, t.name] as const)));

  return (
    <ListSection
      id="add-ons"
      title="Add-ons"
      addLabel="Add an add-on"
      intro="Products sold with a ticket: parking, a T-shirt in sizes, a food voucher. Each has its own price, GST rate and HSN/SAC code on the invoice, and its own stock per size. Gate staff see them when the ticket is scanned and mark them given."
      items={addOns.data}
      emptyText="No add-ons: buyers choose tickets only."
      table={(items, edit) => (
        <ScrollTable
          label="Add-ons"
          head={
            <>
              <Th>Name</Th>
              <Th right>Price</Th>
              <Th right>GST</Th>
              <Th>Variant</Th>
              <Th right>Stock</Th>
              <Th right>Sold</Th>
              <Th right>Held</Th>
              <Th right>Left</Th>
              <Th>Actions</Th>
            </>
          }
        >
          {items.flatMap((addOn) =>
            addOn.variants.map((variant, i) => (
              <tr key={variant.id}>
                {i === 0 ? (
                  <th
                    scope="row"
                    rowSpan={addOn.variants.length}
                    // Wide enough for "T-shirt" on one line: nine columns squeezed it to a letter's width.
                    className="min-w-36 px-4 py-3 text-left font-semibold"
                  >
                    {addOn.name}
                    {!addOn.isActive && <span className="block text-xs text-gray-600">Off sale</span>}
                    {addOn.ticketTypeIds && (
                      <span className="block text-xs text-gray-600">
                        With {addOn.ticketTypeIds.map((id) => typeName.get(id) ?? id).join(', ')}
                      </span>
                    )}
                  </th>
                ) : null}
                {i === 0 ? (
                  <>
                    <td rowSpan={addOn.variants.length} className={CELL}>
                      {formatPaiseExact(addOn.pricePaise)}
                    </td>
                    <td rowSpan={addOn.variants.length} className={CELL}>
                      {addOn.taxRatePercent}% · {addOn.hsnSac}
                    </td>
                  </>
                ) : null}
                <td className="px-4 py-3 text-sm">{variant.name || '—'}</td>
                <Td>{formatCount(variant.stock)}</Td>
                <Td>{formatCount(variant.sold)}</Td>
                <Td>{formatCount(variant.held)}</Td>
                <Td>{formatCount(variant.left)}</Td>
                <td className="px-4 py-3 text-sm">
                  {i === 0 && (
                    <button type="button" className="font-semibold underline" onClick={() => edit(addOn)}>
                      Edit
                    </button>
                  )}
                </td>
              </tr>
            )),
          )}
        </ScrollTable>
      )}
      form={(addOn, done) => (
        <AddOnForm
          eventId={eventId}
          addOn={addOn}
          slots={slots}
          onCancel={done}
          onSaved={() => {
            done();
            void utils.console.addOns.invalidate({ eventId });
          }}
        />
      )}
    />
  );
}

function AddOnForm({
  eventId,
  addOn,
  slots,
  onCancel,
  onSaved,
}: {
  eventId: string;
  addOn: AddOn | null;
  slots: SlotChoice[];
  onCancel: () => void;
  onSaved: () => void;
}) {
  const create = trpc.console.createAddOn.useMutation();
  const update = trpc.console.updateAddOn.useMutation();
  const [name, setName] = useState(addOn?.name ?? '');
  const [description, setDescription] = useState(addOn?.description ?? '');
  const [price, setPrice] = useState(addOn ? String(addOn.pricePaise / 100) : '');
  const [rate, setRate] = useState(String(addOn?.taxRatePercent ?? 18));
  const [hsnSac, setHsnSac] = useState(addOn?.hsnSac ?? '');
  const [maxPerOrder, setMaxPerOrder] = useState(String(addOn?.maxPerOrder ?? 4));
  const [isActive, setIsActive] = useState(addOn?.isActive ?? true);
  const [types, setTypes] = useState<string[]>(addOn?.ticketTypeIds ?? []);
  const [variants, setVariants] = useState<VariantDraft[]>(
    addOn?.variants.map((v) => ({ id: v.id, name: v.name, stock: String(v.stock) })) ?? [
      { name: '', stock: '' },
    ],
  );
  const { errors, formError, submit } = useSectionForm();
  const number = (text: string) => (text.trim() === '' ? Number.NaN : Number(text));

  const onSubmit = async (e: React.FormEvent) => {
    e.preventDefault();
    const rupees = number(price);
    const fields = {
      name,
      description,
      pricePaise: Number.isFinite(rupees) && rupees >= 0 ? rupeesToPaise(rupees) : Number.NaN,
      taxRatePercent: Number(rate),
      hsnSac,
      maxPerOrder: number(maxPerOrder),
      ticketTypeIds: types.length > 0 ? types : null,
      isActive,
      variants: variants.map((v) => ({
        ...(v.id ? { id: v.id } : {}),
        name: v.name,
        stock: number(v.stock),
      })),
    };
    const saved = await submit(CreateAddOnInput.safeParse({ eventId, addOn: fields }), 1, (input) =>
      addOn
        ? update.mutateAsync({ eventId, addOnId: addOn.id, addOn: input.addOn })
        : create.mutateAsync(input),
    );
    if (saved) onSaved();
  };

  return (
    <SectionForm
      title={addOn ? `Edit ${addOn.name}` : 'New add-on'}
      onSubmit={onSubmit}
      formError={formError}
      busy={create.isPending || update.isPending}
      submitLabel={addOn ? 'Save' : 'Add the add-on'}
      onCancel={onCancel}
    >
      <TextField label="Name" value={name} error={errors.name} onChange={(e) => setName(e.target.value)} />
      <TextField
        label="Description"
        hint="Optional: what the buyer gets, where to collect it."
        value={description}
        error={errors.description}
        onChange={(e) => setDescription(e.target.value)}
      />
      <TextField
        label="Price (₹)"
        hint="As your ticket prices are set: with GST included, unless this event's prices are + GST."
        type="number"
        inputMode="decimal"
        min={0}
        value={price}
        error={errors.pricePaise}
        onChange={(e) => setPrice(e.target.value)}
      />
      <label className="block">
        <span className="font-medium">GST rate</span>
        <select
          className="mt-1 block w-full rounded-lg border border-gray-300 px-3 py-2"
          value={rate}
          onChange={(e) => setRate(e.target.value)}
        >
          {GST_RATE_SCHEDULE.rates.map((r) => (
            <option key={r} value={r}>
              {r}%
            </option>
          ))}
        </select>
        {errors.taxRatePercent && <span className="text-sm text-red-700">{errors.taxRatePercent}</span>}
      </label>
      <TextField
        label="HSN or SAC code"
        hint="For the invoice: 6109 for T-shirts, 996743 for parking, 996331 for food."
        inputMode="numeric"
        value={hsnSac}
        error={errors.hsnSac}
        onChange={(e) => setHsnSac(e.target.value)}
      />
      <TextField
        label="At most per order"
        type="number"
        inputMode="numeric"
        min={1}
        value={maxPerOrder}
        error={errors.maxPerOrder}
        onChange={(e) => setMaxPerOrder(e.target.value)}
      />
      <fieldset>
        <legend className="font-medium">Variants and stock</legend>
        <p className="text-sm text-gray-600">One row without a name when it has no sizes.</p>
        {variants.map((v, i) => (
          <div key={v.id ?? `new-${i}`} className="mt-2 flex items-end gap-2">
            <TextField
              label={`Variant ${i + 1} name`}
              value={v.name}
              onChange={(e) =>
                setVariants(variants.map((x, j) => (j === i ? { ...x, name: e.target.value } : x)))
              }
            />
            <TextField
              label={`Variant ${i + 1} stock`}
              type="number"
              inputMode="numeric"
              min={0}
              value={v.stock}
              onChange={(e) =>
                setVariants(variants.map((x, j) => (j === i ? { ...x, stock: e.target.value } : x)))
              }
            />
            {variants.length > 1 && (
              <button
                type="button"
                className="mb-2 text-sm font-semibold underline"
                onClick={() => setVariants(variants.filter((_, j) => j !== i))}
              >
                Remove
              </button>
            )}
          </div>
        ))}
        <button
          type="button"
          className="mt-2 text-sm font-semibold underline"
          onClick={() => setVariants([...variants, { name: '', stock: '' }])}
        >
          Add a variant
        </button>
        {errors.variants && <p className="text-sm text-red-700">{errors.variants}</p>}
      </fieldset>
      <fieldset>
        <legend className="font-medium">Only with these ticket types (none chosen: any)</legend>
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
        {errors.ticketTypeIds && <p className="text-sm text-red-700">{errors.ticketTypeIds}</p>}
      </fieldset>
      <label className="flex items-center gap-2">
        <input type="checkbox" checked={isActive} onChange={(e) => setIsActive(e.target.checked)} />
        On sale
      </label>
    </SectionForm>
  );
}
