// @vitest-environment happy-dom
import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Pager } from './pager.tsx';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

let root: Root | undefined;
let container: HTMLElement;
afterEach(() => {
  act(() => root?.unmount());
  container?.remove();
});

function render(props: Partial<Parameters<typeof Pager>[0]>) {
  const moves = { onPrevious: vi.fn(), onNext: vi.fn() };
  container = document.createElement('div');
  document.body.append(container);
  root = createRoot(container);
  act(() =>
    root!.render(<Pager label="Orders pages" hasPrevious={false} hasNext={false} {...moves} {...props} />),
  );
  const button = (name: string) =>
    [...container.querySelectorAll('button')].find((b) => b.textContent === name) as HTMLButtonElement;
  return { moves, button };
}

describe('the console and admin pager (issue 39: one pager for both)', () => {
  it('shows nothing while there is a single page', () => {
    render({});
    expect(container.querySelector('nav')).toBeNull();
  });

  it('on the first of several pages: Previous is off, Next moves on, and it says where the reader is', () => {
    const { moves, button } = render({ hasNext: true, position: 'Page 1 of 3' });
    expect(container.querySelector('nav')?.getAttribute('aria-label')).toBe('Orders pages');
    expect(container.textContent).toContain('Page 1 of 3');
    expect(button('Previous page').disabled).toBe(true);
    act(() => button('Next page').click());
    expect(moves.onNext).toHaveBeenCalledTimes(1);
  });

  it('on the last page: Next is off, Previous moves back', () => {
    const { moves, button } = render({ hasPrevious: true });
    expect(button('Next page').disabled).toBe(true);
    act(() => button('Previous page').click());
    expect(moves.onPrevious).toHaveBeenCalledTimes(1);
  });
});
