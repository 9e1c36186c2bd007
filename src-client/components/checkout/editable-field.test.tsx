// @vitest-environment happy-dom
import { act, useState } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, describe, expect, it } from 'vitest';
import { EditableField } from './editable-field.tsx';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

let root: Root | undefined;
let container: HTMLElement;
let saved = '';

afterEach(() => {
  act(() => root?.unmount());
  container?.remove();
});

function Phone({ initial }: { initial: string }) {
  const [value, setValue] = useState(initial);
  saved = value;
  return (
    <EditableField
      label="Phone"
      type="tel"
      value={value}
      placeholder="10-digit mobile number"
      onChange={setValue}
    />
  );
}

function render(initial: string) {
  container = document.createElement('div');
  document.body.append(container);
  root = createRoot(container);
  act(() => root!.render(<Phone initial={initial} />));
}

const input = () => container.querySelector('input');
const editButton = () => container.querySelector<HTMLButtonElement>('button[aria-label="Edit Phone"]');

function edit(text: string) {
  act(() => editButton()!.click());
  const box = input()!;
  // React listens for 'input' and reads the value through the prototype's setter it tracks.
  act(() => {
    Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!.call(box, text);
    box.dispatchEvent(new Event('input', { bubbles: true }));
  });
}

function press(key: string) {
  act(() => input()!.dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true })));
}

describe('EditableField (Ticket Details)', () => {
  it('keeps an edit on Enter and returns focus to Edit', () => {
    render('');
    edit('98765 43210');
    press('Enter');
    expect(input()).toBeNull();
    expect(saved).toBe('98765 43210');
    expect(container.querySelector('output')?.textContent).toBe('98765 43210');
    expect(document.activeElement).toBe(editButton());
  });

  it('puts back the value from before the edit on Esc, closes the field and returns focus to Edit', () => {
    render('9876543210');
    edit('12345');
    expect(saved).toBe('12345');
    press('Escape');
    expect(input()).toBeNull();
    expect(saved).toBe('9876543210');
    expect(container.querySelector('output')?.textContent).toBe('9876543210');
    expect(document.activeElement).toBe(editButton());
  });
});
