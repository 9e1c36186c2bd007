import { createLazyRoute, Link } from '@tanstack/react-router';
import { useEffect, useRef, useState } from 'react';
import { formatDateTime, formatTime } from '../../../shared/dates.ts';
import { formatCount } from '../../../shared/money.ts';
import { describeWait, QUEUE_TOKEN_HEADER, type WaitingRoomStatus } from '../../../shared/waiting-room.ts';
import { LoadingText } from '../../components/status-screens.tsx';
import { useCurrentUser } from '../../lib/auth.ts';
import { trpc } from '../../lib/trpc.ts';
import { storeAdmissionPass, storedQueueToken, storeQueueToken } from '../../lib/waiting-room-storage.ts';

export const Route = createLazyRoute('/_buyer/events/$eventId/waiting-room')({ component: WaitingRoomPage });

/** After a failed check (network down, server restarting): try again this soon, keeping the place. */
const RETRY_MS = 3_000;

function WaitingRoomPage() {
  const { eventId } = Route.useParams();
  const me = useCurrentUser();
  const userId = me.data?.id ?? null;
  const token = useQueueToken(eventId, userId);
  const { status, offline } = useStatus(eventId, me.isPending ? undefined : (token ?? null));
  const now = useServerClock(status);
  if (userId && status?.visitor?.pass && status.visitor.passExpiresAt) {
    storeAdmissionPass(eventId, userId, status.visitor.pass, status.visitor.passExpiresAt);
  }
  if (me.isPending || !status) return <LoadingText />;
  const here = `/events/${eventId}/waiting-room`;
  const opensAt = status.opensAt ? Date.parse(status.opensAt) : null;
  const open = opensAt !== null && now >= opensAt;
  const visitor = status.visitor;

  return (
    <section className="mx-auto w-full max-w-lg px-4 py-10">
      <div className="rounded-xl border border-gray-200 p-6 shadow-sm" data-testid="waiting-room">
        <h1 className="text-2xl font-bold">Waiting room</h1>
        {offline && (
          <p className="mt-3 rounded-md bg-amber-50 p-2 text-sm text-amber-900" role="status">
            Reconnecting… your place is kept.
          </p>
        )}
        {!status.enabled ? (
          <div className="mt-4">
            <p className="text-gray-700">This event has no waiting room: tickets are on sale as usual.</p>
            <ChooseTickets eventId={eventId} />
          </div>
        ) : status.soldOut ? (
          <div className="mt-4" role="alert">
            <p className="text-lg font-semibold text-gray-900">All tickets are sold out.</p>
            <p className="mt-2 text-gray-700">
              Seats sometimes come back when holds expire or bookings are cancelled.
            </p>
            <Link
              to="/events/$eventId"
              params={{ eventId }}
              className="mt-4 inline-block font-semibold text-brand-700 underline"
            >
              Join the waiting list on the event page
            </Link>
          </div>
        ) : visitor?.admitted ? (
          <div className="mt-4" role="status">
            <p className="text-lg font-semibold text-green-800">It’s your turn!</p>
            <p className="mt-2 text-gray-700">
              Choose your tickets now. Your pass is valid until{' '}
              {visitor.passExpiresAt ? formatTime(visitor.passExpiresAt) : 'soon'}; come back here to renew
              it.
            </p>
            <ChooseTickets eventId={eventId} />
          </div>
        ) : !open ? (
          <div className="mt-4">
            <p className="text-gray-700">The sale opens in</p>
            <p className="mt-1 font-mono text-4xl font-bold tabular-nums" data-testid="countdown">
              {countdown((opensAt ?? now) - now)}
            </p>
            {status.opensAt && (
              <p className="mt-1 text-sm text-gray-600">On sale from {formatDateTime(status.opensAt)} IST</p>
            )}
            <p className="mt-4 text-gray-700">
              When the sale opens, everyone already here gets a random place in the queue: arriving earlier or
              refreshing this page gives no advantage. You can leave this page open; it updates itself.
            </p>
            {visitor ? (
              <p className="mt-4 rounded-md bg-green-50 p-3 font-medium text-green-900" role="status">
                You’re in. Keep this page open (or come back to it): your place is kept for your account.
              </p>
            ) : (
              <SignInForPlace here={here} signedIn={!!userId} />
            )}
          </div>
        ) : visitor && visitor.position !== null ? (
          <div className="mt-4" role="status">
            <dl className="grid grid-cols-2 gap-4">
              <div className="rounded-lg bg-gray-50 p-3">
                <dt className="text-sm text-gray-600">Your place</dt>
                <dd className="text-3xl font-bold tabular-nums" data-testid="position">
                  {formatCount(visitor.position)}
                </dd>
              </div>
              <div className="rounded-lg bg-gray-50 p-3">
                <dt className="text-sm text-gray-600">People ahead of you</dt>
                <dd className="text-3xl font-bold tabular-nums" data-testid="ahead">
                  {formatCount(visitor.ahead ?? 0)}
                </dd>
              </div>
            </dl>
            <p className="mt-4 text-gray-700" data-testid="estimated-wait">
              Estimated wait: {describeWait(visitor.estimatedWaitMinutes)} (we let in{' '}
              {formatCount(status.admitPerMinute)} {status.admitPerMinute === 1 ? 'person' : 'people'} a
              minute).
            </p>
            <p className="mt-2 text-sm text-gray-600">This page updates itself. Please don’t close it.</p>
          </div>
        ) : visitor ? (
          <p className="mt-4 text-gray-700" role="status">
            The sale has opened. Finding your place…
          </p>
        ) : (
          <div className="mt-4">
            <p className="text-gray-700">The sale is open. Join the queue to get your place.</p>
            <SignInForPlace here={here} signedIn={!!userId} />
          </div>
        )}
      </div>
    </section>
  );
}

function ChooseTickets({ eventId }: { eventId: string }) {
  return (
    <Link
      to="/select-tickets/$eventId"
      params={{ eventId }}
      className="mt-5 inline-block w-full rounded-md bg-brand-600 px-4 py-2.5 text-center font-semibold text-white hover:bg-brand-700"
    >
      Choose tickets
    </Link>
  );
}

function SignInForPlace({ here, signedIn }: { here: string; signedIn: boolean }) {
  if (signedIn) return <p className="mt-4 text-gray-700">Taking your place…</p>;
  return (
    <div className="mt-4">
      <Link
        to="/login"
        search={{ redirect: here }}
        className="inline-block rounded-md bg-brand-600 px-4 py-2.5 font-semibold text-white hover:bg-brand-700"
      >
        Sign in to take your place
      </Link>
    </div>
  );
}

/**
 * The account's queue token for this event: the stored one, or a fresh join (the server answers the
 * same place for the same account, so a second tab or device is never a second place).
 */
function useQueueToken(eventId: string, userId: string | null): string | null {
  const [token, setToken] = useState<string | null>(() =>
    userId ? storedQueueToken(eventId, userId) : null,
  );
  const join = trpc.waitingRoom.join.useMutation();
  const joining = useRef(false);
  useEffect(() => {
    if (!userId) return;
    const stored = storedQueueToken(eventId, userId);
    if (stored) {
      setToken(stored);
      return;
    }
    if (joining.current) return;
    joining.current = true;
    join
      .mutateAsync({ eventId })
      .then(({ token: fresh }) => {
        storeQueueToken(eventId, userId, fresh);
        setToken(fresh);
      })
      .catch(() => undefined)
      .finally(() => {
        joining.current = false;
      });
  }, [eventId, userId, join.mutateAsync]);
  return token;
}

/**
 * Polls the status check at the interval the server asks for (short near the head of the queue, long
 * far from it). A failed check keeps the last answer on screen and retries in a few seconds.
 * `token` undefined: not known yet (the account is loading); null: signed out or not joined.
 */
function useStatus(eventId: string, token: string | null | undefined) {
  const [status, setStatus] = useState<WaitingRoomStatus | null>(null);
  const [offline, setOffline] = useState(false);
  useEffect(() => {
    if (token === undefined) return;
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const check = async () => {
      let next = RETRY_MS;
      try {
        const res = await fetch(`/api/waiting-room/${encodeURIComponent(eventId)}`, {
          headers: token ? { [QUEUE_TOKEN_HEADER]: token } : {},
        });
        if (!res.ok) throw new Error(`status ${res.status}`);
        const body = (await res.json()) as WaitingRoomStatus;
        if (stopped) return;
        setStatus({ ...body, receivedAt: Date.now() } as WaitingRoomStatus);
        setOffline(false);
        next = body.nextCheckMs;
      } catch {
        if (!stopped) setOffline(true);
      }
      if (!stopped) timer = setTimeout(check, next);
    };
    void check();
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [eventId, token]);
  return { status, offline };
}

/** The server's clock, ticking every second between checks (the countdown must not trust the device's). */
function useServerClock(status: WaitingRoomStatus | null): number {
  const [, setTick] = useState(0);
  useEffect(() => {
    const timer = setInterval(() => setTick((n) => n + 1), 1_000);
    return () => clearInterval(timer);
  }, []);
  if (!status) return Date.now();
  const receivedAt = (status as WaitingRoomStatus & { receivedAt?: number }).receivedAt ?? Date.now();
  return Date.parse(status.serverNow) + (Date.now() - receivedAt);
}

function countdown(ms: number): string {
  const total = Math.max(0, Math.ceil(ms / 1_000));
  const h = Math.floor(total / 3_600);
  const m = Math.floor((total % 3_600) / 60);
  const s = total % 60;
  const two = (n: number) => String(n).padStart(2, '0');
  return h > 0 ? `${h}:${two(m)}:${two(s)}` : `${two(m)}:${two(s)}`;
}
