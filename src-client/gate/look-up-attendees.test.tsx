// @vitest-environment happy-dom
import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, describe, expect, it } from 'vitest';
import { bookingCountLine, LookUpAttendees, type LookUpAttendeeTicket } from './look-up-attendees.tsx';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

let root: Root | undefined;
let container: HTMLElement;
afterEach(() => {
  act(() => root?.unmount());
  container?.remove();
});

const ticket = (position: number, name: string, extra: Partial<LookUpAttendeeTicket> = {}) => ({
  ticketId: `JB2345678923+type-1+${position}`,
  name,
  typeName: 'Stalls',
  label: `Ticket ${position} of 3 · ${name}`,
  allowed: 1,
  admitted: 0,
  cancelled: false,
  ...extra,
});

describe('the look-up’s attendees (ADR 0046)', () => {
  it('admits the person picked by their own ticket; one already in or cancelled cannot be picked', () => {
    const picked: string[] = [];
    const histories: { id: string; name: string }[] = [];
    container = document.createElement('div');
    document.body.append(container);
    root = createRoot(container);
    act(() =>
      root!.render(
        <LookUpAttendees
          tickets={[
            ticket(1, 'Kavya Menon', { admitted: 1 }),
            ticket(2, 'Rohan Das'),
            ticket(3, 'Asha Verma', { cancelled: true }),
          ]}
          onPick={(id) => picked.push(id)}
          onHistory={(t) => histories.push(t)}
        />,
      ),
    );
    const buttons = [...container.querySelectorAll('button')];
    const byText = (text: string) => buttons.find((b) => b.textContent?.includes(text))!;
    expect(byText('Kavya Menon').textContent).toBe(
      'Kavya Menon · StallsTicket 1 of 3 · Kavya Menon · 1 of 1 in',
    );
    expect(byText('Kavya Menon').disabled).toBe(true);
    expect(byText('Asha Verma').textContent).toContain('Cancelled');
    expect(byText('Asha Verma').disabled).toBe(true);
    act(() => byText('Rohan Das').click());
    expect(picked).toEqual(['JB2345678923+type-1+2']);
    // Only the admitted one has check-ins to open (and undo from).
    const history = buttons.filter((b) => b.getAttribute('aria-label')?.startsWith('History'));
    expect(history.map((b) => b.getAttribute('aria-label'))).toEqual(['History: check-ins of Kavya Menon']);
    act(() => history[0]!.click());
    expect(histories).toEqual([{ id: 'JB2345678923+type-1+1', name: 'Kavya Menon' }]);
  });

  it('says a booking whose every person has their own ticket has none of its own to admit', () => {
    const own = [ticket(1, 'Kavya Menon')];
    expect(bookingCountLine({ cancelled: false, allowed: 0, admitted: 0, ownTickets: own })).toBe(
      'Each person has their own ticket:',
    );
    expect(bookingCountLine({ cancelled: false, allowed: 2, admitted: 1, ownTickets: own })).toBe(
      '1 of 2 in',
    );
    expect(bookingCountLine({ cancelled: false, allowed: 2, admitted: 0, ownTickets: [] })).toBe('0 of 2 in');
    expect(bookingCountLine({ cancelled: true, allowed: 0, admitted: 0, ownTickets: own })).toBe(
      'Cancelled booking',
    );
  });
});
