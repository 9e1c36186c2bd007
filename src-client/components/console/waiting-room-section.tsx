import { useState } from 'react';
import { formatDateTime, formatInIndia } from '../../../shared/dates.ts';
import { formatCount } from '../../../shared/money.ts';
import {
  DEFAULT_ADMIT_PER_MINUTE,
  MAX_ADMIT_PER_MINUTE,
  WAITING_ROOM_MESSAGES,
  WaitingRoomSettingsInput,
} from '../../../shared/waiting-room.ts';
import { serverRefusalOf, zodFieldErrors } from '../../lib/server-field-errors.ts';
import { trpc } from '../../lib/trpc.ts';
import { FormError, FormNotice, SubmitButton, TextField } from '../auth-fields.tsx';

/** A datetime-local value is read as India time, whatever the browser's zone; stored as UTC. */
const fromIndiaLocal = (v: string) => (v ? new Date(`${v}:00+05:30`).toISOString() : '');
const toIndiaLocal = (iso: string | null) => (iso ? formatInIndia(iso, "yyyy-MM-dd'T'HH:mm") : '');

/**
 * Issue 19: the event's waiting room. On: buyers wait for the on-sale time, get a random place if they
 * came before it, and are let in at the rate set here; Proceed needs the pass they get then.
 */
export function WaitingRoomSection({ eventId }: { eventId: string }) {
  const room = trpc.organiser.waitingRoom.useQuery({ eventId });
  if (!room.data) return null;
  return <WaitingRoomForm eventId={eventId} room={room.data} />;
}

function WaitingRoomForm({
  eventId,
  room,
}: {
  eventId: string;
  room: {
    enabled: boolean;
    opensAt: string | null;
    admitPerMinute: number | null;
    drawnAt: string | null;
    admittedThrough: number;
    visitors: number;
  };
}) {
  const utils = trpc.useUtils();
  const save = trpc.organiser.updateWaitingRoom.useMutation({
    onSuccess: () => utils.organiser.waitingRoom.invalidate({ eventId }),
  });
  const [enabled, setEnabled] = useState(room.enabled);
  const [opensAt, setOpensAt] = useState(toIndiaLocal(room.opensAt));
  const [rate, setRate] = useState(room.admitPerMinute === null ? '' : String(room.admitPerMinute));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);
  const changed = () => {
    setSaved(false);
    setFormError(null);
  };

  const onSubmit = async (e: React.FormEvent) => {
    e.preventDefault();
    setErrors({});
    setFormError(null);
    const input = {
      eventId,
      enabled,
      opensAt: fromIndiaLocal(opensAt),
      admitPerMinute: rate.trim() === '' ? null : Number(rate),
    };
    const parsed = WaitingRoomSettingsInput.safeParse(input);
    const fieldErrors: Record<string, string> = parsed.success ? {} : zodFieldErrors(parsed.error.issues, 0);
    if (parsed.success && enabled && !room.drawnAt && Date.parse(input.opensAt) <= Date.now()) {
      fieldErrors.opensAt = WAITING_ROOM_MESSAGES.opensAtPast;
    }
    if (Object.keys(fieldErrors).length > 0) return setErrors(fieldErrors);
    try {
      await save.mutateAsync(input);
      setSaved(true);
    } catch (error) {
      const refusal = serverRefusalOf(error);
      setErrors(refusal.fields);
      setFormError(refusal.form);
    }
  };

  return (
    <section aria-labelledby="waiting-room-heading" className="max-w-md">
      <h2 id="waiting-room-heading" className="text-xl font-bold">
        Waiting room
      </h2>
      <p className="mt-1 text-sm text-gray-600">
        For a big on-sale: buyers who come before the on-sale time wait on a countdown and get a random place
        when it opens (coming early or refreshing gives no edge); later buyers queue in order. We let them in
        at the rate below.
      </p>
      <form onSubmit={onSubmit} noValidate className="mt-3 space-y-4">
        <label className="flex items-center gap-2 font-medium">
          <input
            type="checkbox"
            checked={enabled}
            onChange={(e) => {
              setEnabled(e.target.checked);
              changed();
            }}
          />
          Waiting room on
        </label>
        <TextField
          label="On-sale time (India time)"
          type="datetime-local"
          value={opensAt}
          disabled={!!room.drawnAt}
          hint={room.drawnAt ? 'The sale has opened: the time can no longer change.' : undefined}
          error={errors.opensAt}
          onChange={(e) => {
            setOpensAt(e.target.value);
            changed();
          }}
        />
        <TextField
          label="People let in per minute"
          type="number"
          inputMode="numeric"
          min={1}
          max={MAX_ADMIT_PER_MINUTE}
          placeholder={`Default: ${formatCount(DEFAULT_ADMIT_PER_MINUTE)}`}
          hint={`Leave empty for the default (${formatCount(DEFAULT_ADMIT_PER_MINUTE)} a minute, well within what the checkout handles).`}
          error={errors.admitPerMinute}
          value={rate}
          onChange={(e) => {
            setRate(e.target.value);
            changed();
          }}
        />
        <FormError message={formError} />
        {saved && <FormNotice>Saved.</FormNotice>}
        <SubmitButton busy={save.isPending} busyText="Saving...">
          Save waiting room
        </SubmitButton>
      </form>
      {room.visitors > 0 && (
        <p className="mt-3 text-sm text-gray-700" data-testid="waiting-room-counts">
          {formatCount(room.visitors)} in the waiting room
          {room.drawnAt
            ? `; opened ${formatDateTime(room.drawnAt)}, ${formatCount(room.admittedThrough)} let in so far.`
            : '.'}
        </p>
      )}
    </section>
  );
}
