// @vitest-environment happy-dom
import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { EDITOR_MESSAGES } from '../../../shared/event-editor-schemas.ts';
import { EditError, EditorReloadContext, type Run, useEditAction } from './edit-error.tsx';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

let root: Root | undefined;
let container: HTMLElement;
afterEach(() => {
  act(() => root?.unmount());
  container?.remove();
  vi.restoreAllMocks();
});

/** A refusal as tRPC's client holds it: the server's message with the answer's status. */
const refused = (message: string) => Object.assign(new Error(message), { data: { httpStatus: 409 } });

/** Two rows of the editor, each with its own button and error line, as a ticket type row has. */
function Row({ name, refusal }: { name: string; refusal: string }) {
  const run: Run = (work) => work().then(() => undefined);
  const remove = useEditAction(run);
  return (
    <li data-row={name}>
      <button type="button" onClick={() => remove.act(() => Promise.reject(refused(refusal)))}>
        Remove {name}
      </button>
      <EditError message={remove.error} />
    </li>
  );
}

function render(reload: () => void) {
  container = document.createElement('div');
  document.body.append(container);
  root = createRoot(container);
  act(() =>
    root!.render(
      <EditorReloadContext.Provider value={reload}>
        <ul>
          <Row name="Gold" refusal={EDITOR_MESSAGES.hasBookings('ticket type')} />
          <Row name="Silver" refusal={EDITOR_MESSAGES.staleVersion} />
        </ul>
      </EditorReloadContext.Provider>,
    ),
  );
}

const click = async (label: string) => {
  const button = [...container.querySelectorAll('button')].find((b) => b.textContent === label)!;
  await act(async () => {
    button.click();
    await new Promise((r) => setTimeout(r, 0));
  });
};

describe("an editor button's refusal", () => {
  it('shows in its own row as an alert, scrolled into view, and nowhere else', async () => {
    const scrolled = vi.spyOn(HTMLElement.prototype, 'scrollIntoView').mockImplementation(() => {});
    render(() => {});
    await click('Remove Gold');
    const alerts = [...container.querySelectorAll('[role="alert"]')];
    expect(alerts.map((a) => a.closest('li')?.getAttribute('data-row'))).toEqual(['Gold']);
    expect(alerts[0]!.textContent).toBe(EDITOR_MESSAGES.hasBookings('ticket type'));
    expect(scrolled).toHaveBeenCalledTimes(1);
    expect(scrolled.mock.contexts[0]).toBe(alerts[0]);
    // The same refusal again is shown (and scrolled to) again.
    await click('Remove Gold');
    expect(scrolled).toHaveBeenCalledTimes(2);
  });

  it('offers Reload beside a stale version', async () => {
    vi.spyOn(HTMLElement.prototype, 'scrollIntoView').mockImplementation(() => {});
    const reload = vi.fn();
    render(reload);
    await click('Remove Silver');
    const alert = container.querySelector('li[data-row="Silver"] [role="alert"]')!;
    expect(alert.textContent).toContain(EDITOR_MESSAGES.staleVersion);
    act(() => alert.querySelector('button')!.click());
    expect(reload).toHaveBeenCalledOnce();
  });
});
