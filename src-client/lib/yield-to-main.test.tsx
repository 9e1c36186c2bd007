// @vitest-environment happy-dom
import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, describe, expect, it } from 'vitest';
import { useRenderInSteps } from './yield-to-main.ts';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

let root: Root | undefined;
let container: HTMLElement;
afterEach(() => {
  act(() => root?.unmount());
  container?.remove();
});

const NAMES = Array.from({ length: 30 }, (_, i) => `item ${i + 1}`);

function List({ total }: { total: number }) {
  const shown = useRenderInSteps(total, 5, 4);
  return (
    <ul>
      {NAMES.slice(0, shown).map((name) => (
        <li key={name}>{name}</li>
      ))}
    </ul>
  );
}

const items = () => container.querySelectorAll('li').length;

/** Lets the steps' yields (new tasks) and the renders they cause run, until `count` items are drawn. */
async function laterTasks(count: number) {
  const seen: number[] = [];
  for (let i = 0; i < 50 && items() < count; i += 1) {
    await act(() => new Promise((resolve) => setTimeout(resolve, 20)));
    seen.push(items());
  }
  return seen;
}

describe('useRenderInSteps', () => {
  it('draws the first items in the first render and the rest in later tasks, a step at a time', async () => {
    container = document.createElement('div');
    document.body.append(container);
    root = createRoot(container);
    // The first render, as one task: only the first five are drawn.
    act(() => root!.render(<List total={14} />));
    expect(items()).toBe(5);
    const seen = await laterTasks(14);
    expect(items()).toBe(14);
    // Four more per step, never all at once.
    expect(seen.every((n) => [5, 9, 13, 14].includes(n))).toBe(true);
  });

  it('once caught up, a list that grows shows its new items at once', async () => {
    container = document.createElement('div');
    document.body.append(container);
    root = createRoot(container);
    act(() => root!.render(<List total={7} />));
    await laterTasks(7);
    expect(items()).toBe(7);
    act(() => root!.render(<List total={30} />));
    expect(items()).toBe(30);
  });
});
