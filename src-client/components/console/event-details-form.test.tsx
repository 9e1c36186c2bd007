// @vitest-environment happy-dom
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { createMemoryHistory, createRootRoute, createRouter, RouterProvider } from '@tanstack/react-router';
import { act } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import type { EventDetailsFields } from '../../../shared/event-editor-schemas.ts';
import { mountWithTrpc, unmountMounted, waitFor } from '../../../test/mocks/mount-with-trpc.tsx';
import { EMPTY_DETAILS, EventDetailsForm } from './event-details-form.tsx';

/**
 * The event details form (issue 39: parts a newcomer reads in one screen each): the form keeps the values
 * and the server's refusals of every part (the basics, the buyer's rules, the line-up), and no part
 * grows past a screen again.
 */
afterEach(unmountMounted);

const VALID: EventDetailsFields = {
  ...EMPTY_DETAILS,
  name: 'Jazz Night',
  city: 'Pune',
  eventLocationText: 'Ganesh Kala Krida Manch',
  description: 'An evening of jazz.',
  language: 'English',
  artists: [{ name: 'Asha', imageUrl: null }],
};

let container: HTMLElement;
async function render(onSave: (values: EventDetailsFields) => Promise<unknown>) {
  const router = createRouter({
    routeTree: createRootRoute({
      component: () => <EventDetailsForm initial={VALID} submitLabel="Save details" onSave={onSave} />,
    }),
    history: createMemoryHistory(),
  });
  container = await mountWithTrpc(<RouterProvider router={router} />);
  await waitFor(() => container.querySelector('form'), 'the form');
  // happy-dom leaves a select's first option chosen where the browser shows the form's value: choose them.
  await change(control('Category'), VALID.category);
  await change(control('City'), VALID.city);
  await change(control('Refund'), 'full');
}

function control<T extends HTMLElement>(label: string): T {
  const id = [...container.querySelectorAll('label')].find((l) => l.textContent?.startsWith(label))?.htmlFor;
  return container.querySelector<T>(`[id="${id}"]`)!;
}

async function change(element: HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement, value: string) {
  await act(async () => {
    element.value = value;
    element.dispatchEvent(new Event('input', { bubbles: true }));
    element.dispatchEvent(new Event('change', { bubbles: true }));
  });
}

async function submit() {
  await act(async () => {
    container.querySelector<HTMLButtonElement>('button[type="submit"]')!.click();
  });
}

describe('the event details form', () => {
  it('saves what every part holds: the basics, the refund rule, the transfers and the line-up', async () => {
    const saved: EventDetailsFields[] = [];
    await render(async (values) => saved.push(values));
    await change(control('Refund'), 'percent');
    await waitFor(() => control('Refund (%)'), "the refund's percentage");
    await change(control<HTMLInputElement>('Refund (%)'), '50');
    await change(control<HTMLTextAreaElement>('Artists (one per line)'), 'Asha\nRavi');
    const transfers = container.querySelector<HTMLInputElement>('input[type="checkbox"]')!;
    await act(async () => transfers.click());
    expect(control('Transfers per booking')).toBeNull();
    await submit();
    await waitFor(() => saved.length > 0, 'the save');
    expect(saved[0]).toMatchObject({
      name: 'Jazz Night',
      refundRule: 'percent',
      refundPercent: 50,
      transfersAllowed: false,
      artists: [
        { name: 'Asha', imageUrl: null },
        { name: 'Ravi', imageUrl: null },
      ],
    });
    await waitFor(() => container.textContent?.includes('Saved.'), "'Saved.'");
  });

  it("puts the server's refusals beside the fields of each part", async () => {
    await render(async () => {
      throw Object.assign(new Error('Check the form'), {
        data: {
          httpStatus: 400,
          fieldErrors: { language: 'Language is too long', maxTransfersPerBooking: 'At most 5 transfers' },
        },
      });
    });
    await submit();
    await waitFor(() => container.textContent?.includes('At most 5 transfers'), 'the transfers refusal');
    expect(container.textContent).toContain('Language is too long');
    expect(control('Language').getAttribute('aria-invalid')).toBe('true');
  });

  it('has no part longer than a screen (about 100 lines)', () => {
    const long = readdirSync(import.meta.dirname)
      .filter((name) => name.startsWith('event-details-') && /\.tsx?$/.test(name) && !name.includes('.test.'))
      .flatMap((name) => functionLengths(readFileSync(path.join(import.meta.dirname, name), 'utf8')))
      .filter(([, lines]) => lines > 100);
    expect(long).toEqual([]);
  });
});

/** Each top-level function's name and lines, from `function` (or `export function`) to its closing `}`. */
function functionLengths(source: string): [string, number][] {
  const lines = source.split('\n');
  const out: [string, number][] = [];
  lines.forEach((line, start) => {
    const name = /^(?:export )?function (\w+)/.exec(line)?.[1];
    if (!name) return;
    const end = lines.findIndex((l, i) => i > start && l === '}');
    out.push([name, end - start + 1]);
  });
  return out;
}
