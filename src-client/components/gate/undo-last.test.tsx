// @vitest-environment happy-dom
import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { GateEngine } from '../../gate/gate-engine.ts';
import { UndoLast } from './undo-last.tsx';
import type { Admitted } from './use-scanner.ts';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

let root: Root | undefined;
let container: HTMLElement;
afterEach(() => {
  act(() => root?.unmount());
  container?.remove();
});

const admit = {
  kind: 'admit',
  scanId: 'scan-1',
  persons: 2,
  ticket: { name: 'Nila Groupticket' },
} as Admitted;

function render(undo: GateEngine['undo']) {
  container = document.createElement('div');
  document.body.append(container);
  root = createRoot(container);
  const onDone = vi.fn();
  act(() =>
    root!.render(
      <UndoLast admit={admit} engine={{ undo } as GateEngine} onDone={onDone} onClose={() => {}} />,
    ),
  );
  const input = container.querySelector('input')!;
  const type = (value: string) =>
    act(() => {
      // React listens for the native input event; set the value the way a keyboard would.
      Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!.call(input, value);
      input.dispatchEvent(new Event('input', { bubbles: true }));
    });
  const undoButton = [...container.querySelectorAll('button')].find(
    (b) => b.textContent === 'Undo admission',
  )!;
  return { input, type, undoButton, onDone };
}

describe('undo the last admission (the reason asked as in a ticket’s check-ins)', () => {
  it('asks why before sending, by the server’s rule, and takes no more than the server keeps', async () => {
    const undo = vi.fn<GateEngine['undo']>(async () => ({}) as Awaited<ReturnType<GateEngine['undo']>>);
    const { input, type, undoButton, onDone } = render(undo);
    expect(input.maxLength).toBe(200);
    type(' ');
    act(() => undoButton.click());
    expect(container.querySelector('[role="alert"]')?.textContent).toBe(
      'Say why (e.g. scanned the wrong ticket)',
    );
    expect(undo).not.toHaveBeenCalled();

    type('Scanned for the wrong group');
    await act(async () => undoButton.click());
    expect(undo).toHaveBeenCalledWith('scan-1', 'Scanned for the wrong group');
    expect(onDone).toHaveBeenCalled();
  });
});
