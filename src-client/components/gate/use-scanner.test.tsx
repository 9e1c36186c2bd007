// @vitest-environment happy-dom
import { act, createRef } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { LocalTicket } from '../../gate/decide-locally.ts';
import type { Code, Shown } from '../../gate/gate-engine.ts';
import { useScanner } from './use-scanner.ts';

// The camera and the speaker are the device's edge: happy-dom has neither, and the beep is what is checked.
const signal = vi.hoisted(() => vi.fn());
vi.mock('../../gate/scanner.ts', () => ({ scanContinuously: () => () => {}, signal }));

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

type Hook = ReturnType<typeof useScanner>;
type Scan = (code: Code, persons?: number, scanId?: string) => Promise<Shown>;

let root: Root | undefined;
afterEach(() => {
  act(() => root?.unmount());
  signal.mockClear();
});

let latest: Hook | undefined;
let engine: { scan: Scan } = { scan: () => Promise.reject(new Error('no engine')) };
const video = createRef<HTMLVideoElement>();

function Probe() {
  latest = useScanner(engine, video, false);
  return null;
}

const ticket: LocalTicket = {
  id: 'BK1',
  name: 'Asha',
  type: 'Gold',
  allowed: 2,
  admitted: 1,
  cancelled: false,
};
const admit = (scanId: string): Shown => ({
  kind: 'admit',
  scanId,
  persons: 1,
  ticket,
  offline: false,
  message: '',
});

/** Renders the hook on an engine whose `scan` is given; `scanner()` is what it last returned. */
function renderScanner(scan: Scan) {
  engine = { scan };
  root = createRoot(document.createElement('div'));
  act(() => root?.render(<Probe />));
  return () => latest as Hook;
}

describe('useScanner', () => {
  it('shows an admission and keeps it as the last admission for Undo', async () => {
    const scanner = renderScanner(async () => admit('s1'));
    await act(async () => scanner().scanBooking('BK1'));
    expect(scanner().shown).toMatchObject({ kind: 'admit', scanId: 's1' });
    expect(scanner().lastAdmit?.scanId).toBe('s1');
    expect(signal).toHaveBeenCalledWith('admit');
    act(() => scanner().dismiss());
    expect(scanner().shown).toBeNull();
    expect(scanner().lastAdmit?.scanId).toBe('s1');
  });

  it('acts on one scan at a time: a second while the first is checked is dropped', async () => {
    const asked: Code[] = [];
    let answer: (s: Shown) => void = () => {};
    const scanner = renderScanner((code) => {
      asked.push(code);
      return new Promise((resolve) => {
        answer = resolve;
      });
    });
    await act(async () => {
      scanner().scanBooking('BK1');
      scanner().scanBooking('BK2');
    });
    await act(async () => answer(admit('s1')));
    expect(asked).toEqual([{ bookingId: 'BK1' }]);
  });

  it('shows a failed check as a refusal with its reason', async () => {
    const scanner = renderScanner(async () => {
      throw new Error('The server is busy');
    });
    await act(async () => scanner().scanBooking('BK1'));
    expect(scanner().shown).toMatchObject({ kind: 'refuse', message: 'The server is busy', ticket: null });
    expect(scanner().lastAdmit).toBeNull();
    expect(signal).toHaveBeenCalledWith('refuse');
  });

  it('asks how many enter, then sends the answer with the same scan id', async () => {
    const asked: [Code, number | undefined, string | undefined][] = [];
    const ask: Shown = { kind: 'ask', remaining: 2, ticket, code: { bookingId: 'BK1' }, scanId: 'q1' };
    const scanner = renderScanner(async (code, persons, scanId) => {
      asked.push([code, persons, scanId]);
      return persons ? admit('q1') : ask;
    });
    await act(async () => scanner().scanBooking('BK1'));
    expect(scanner().shown?.kind).toBe('ask');
    await act(async () => scanner().admitPersons(ask as Extract<Shown, { kind: 'ask' }>, 2));
    expect(asked[1]).toEqual([{ bookingId: 'BK1' }, 2, 'q1']);
    expect(scanner().shown).toMatchObject({ kind: 'admit', scanId: 'q1' });
  });

  it('an undone ticket no longer shows as admitted, nor as the last admission', async () => {
    const scanner = renderScanner(async () => admit('s1'));
    await act(async () => scanner().scanBooking('BK1'));
    act(() => scanner().forgetTicket('OTHER'));
    expect(scanner().lastAdmit?.scanId).toBe('s1');
    act(() => scanner().forgetTicket('BK1'));
    expect(scanner().shown).toBeNull();
    expect(scanner().lastAdmit).toBeNull();
  });

  it('undoing the last admission clears it and the result it still shows', async () => {
    const scanner = renderScanner(async () => admit('s1'));
    await act(async () => scanner().scanBooking('BK1'));
    act(() => scanner().forgetLastAdmit());
    expect(scanner().shown).toBeNull();
    expect(scanner().lastAdmit).toBeNull();
  });
});
