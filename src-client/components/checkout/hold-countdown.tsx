import { useEffect, useRef, useState } from 'react';

/** Time left of the payment session while the seats are held, as m:ss; calls `onExpire` once at zero. */
export function HoldCountdown({ until, onExpire }: { until: string; onExpire: () => void }) {
  const end = new Date(until).getTime();
  const [left, setLeft] = useState(() => Math.max(0, end - Date.now()));
  const expire = useRef(onExpire);
  expire.current = onExpire;
  useEffect(() => {
    let fired = false;
    const tick = () => {
      const ms = Math.max(0, end - Date.now());
      setLeft(ms);
      if (ms === 0 && !fired) {
        fired = true;
        expire.current();
      }
    };
    tick();
    const timer = setInterval(tick, 1000);
    return () => clearInterval(timer);
  }, [end]);
  const seconds = Math.ceil(left / 1000);
  const text = `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
  return (
    <p className="rounded-lg bg-amber-50 px-4 py-2 text-sm text-amber-900" role="timer" aria-live="off">
      Your tickets are held for <strong data-testid="hold-countdown">{text}</strong>. Complete the payment
      before the time runs out.
    </p>
  );
}
