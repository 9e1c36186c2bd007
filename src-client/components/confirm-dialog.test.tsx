// @vitest-environment happy-dom
import { act, useState } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ConfirmDialog } from './confirm-dialog.tsx';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

let root: Root | undefined;
let container: HTMLElement;
afterEach(() => {
  act(() => root?.unmount());
  container?.remove();
});

function render(node: React.ReactNode) {
  container = document.createElement('div');
  document.body.append(container);
  root = createRoot(container);
  act(() => root!.render(node));
}
// The dialog is portalled to the end of the body.
const dialog = () => document.querySelector<HTMLElement>('[role="dialog"]');
const button = (name: string) =>
  [...document.querySelectorAll('button')].find(
    (b) => b.textContent === name || b.getAttribute('aria-label') === name,
  ) as HTMLButtonElement | undefined;

/** "Cancel some tickets" in miniature: the opener goes once the action is done, the result stays. */
function Harness({ done, onConfirm }: { done: boolean; onConfirm: () => void }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" id="neighbour">
        Cancel booking
      </button>
      {!done && (
        <button type="button" onClick={() => setOpen(true)}>
          Cancel some tickets
        </button>
      )}
      <ConfirmDialog
        open={open}
        onOpenChange={setOpen}
        title="Cancel some tickets?"
        description="Sunburn Goa"
        confirmLabel="Cancel these tickets"
        cancelLabel="Keep them"
        busyLabel="Cancelling..."
        busy={false}
        error={null}
        done={done && <p>Done. A refund of ₹590.00 is on its way.</p>}
        returnFocus={() => document.getElementById('neighbour')}
        onConfirm={onConfirm}
      >
        <p>Choose the tickets to cancel.</p>
      </ConfirmDialog>
    </>
  );
}

describe('the one confirm dialog (issue 39: buyers, console and admin)', () => {
  it('asks with its body, confirms, and shows the server’s refusal', () => {
    const onConfirm = vi.fn();
    render(
      <ConfirmDialog
        open
        onOpenChange={() => {}}
        title="Cancel this booking?"
        description="Sunburn Goa"
        confirmLabel="Yes, cancel booking"
        cancelLabel="Keep booking"
        busyLabel="Cancelling..."
        busy={false}
        error="This booking was already cancelled"
        onConfirm={onConfirm}
      >
        <p>You will get a refund of ₹590.00.</p>
      </ConfirmDialog>,
    );
    expect(dialog()?.textContent).toContain('You will get a refund of ₹590.00.');
    expect(dialog()?.querySelector('[role="alert"]')?.textContent).toBe('This booking was already cancelled');
    expect(button('Keep booking')).toBeDefined();
    act(() => button('Yes, cancel booking')!.click());
    expect(onConfirm).toHaveBeenCalledOnce();
  });

  it('once done, says what was done in place of the question, and keeps saying it after the opener has gone', async () => {
    const onConfirm = vi.fn();
    render(<Harness done={false} onConfirm={onConfirm} />);
    act(() => {
      // A real click focuses the button; the dialog remembers it as its opener.
      button('Cancel some tickets')!.focus();
      button('Cancel some tickets')!.click();
    });
    expect(dialog()?.textContent).toContain('Choose the tickets to cancel.');
    expect(dialog()?.querySelector('[role="status"]')).toBeNull();

    // The booking is read again with one ticket left: the button that opened the dialog goes.
    act(() => root!.render(<Harness done onConfirm={onConfirm} />));
    expect(button('Cancel some tickets')).toBeUndefined();
    const status = dialog()?.querySelector('[role="status"]');
    expect(status?.textContent).toBe('Done. A refund of ₹590.00 is on its way.');
    expect(dialog()?.textContent).not.toContain('Choose the tickets to cancel.');
    expect(button('Cancel these tickets')).toBeUndefined();
    expect(button('Keep them')).toBeUndefined();

    // Closed with its X: focus lands on the neighbour the owner named, not at the start of the page.
    act(() => button('Close')!.click());
    expect(dialog()).toBeNull();
    // Radix moves focus on the tick after the dialog unmounts.
    await act(() => new Promise((resolve) => setTimeout(resolve, 0)));
    expect(document.activeElement?.id).toBe('neighbour');
  });
});
