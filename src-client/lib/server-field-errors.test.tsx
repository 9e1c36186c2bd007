// @vitest-environment happy-dom
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { type UseFormReturn, useForm } from 'react-hook-form';
import { afterEach, describe, expect, it } from 'vitest';
import { serverRefusalOf, showServerErrors, zodFieldErrors } from './server-field-errors.ts';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

type Fields = { name: string; email: string };
let root: Root | undefined;
let container: HTMLElement;
afterEach(() => {
  act(() => root?.unmount());
  container?.remove();
});

let rendered: UseFormReturn<Fields> | undefined;

/** A form of two fields as the app's forms are, handing its react-hook-form object to the test. */
function TwoFields() {
  const form = useForm<Fields>({ defaultValues: { name: '', email: '' } });
  rendered = form;
  return (
    <form>
      <input aria-label="Name" {...form.register('name')} />
      <input aria-label="Email" {...form.register('email')} />
    </form>
  );
}

function renderForm(): UseFormReturn<Fields> {
  container = document.createElement('div');
  document.body.append(container);
  root = createRoot(container);
  act(() => root!.render(<TwoFields />));
  return rendered!;
}

/** A refusal as tRPC's client holds it: the server's message, status and field messages. */
const refused = (message: string, fieldErrors: Record<string, string> = {}) =>
  Object.assign(new Error(message), { data: { httpStatus: 400, fieldErrors } });

describe('showServerErrors: the server’s field errors on the form (issue 39: one helper for every form)', () => {
  it('puts each message the form has a field for beside that field, focuses the first, and leaves the form line empty', () => {
    const form = renderForm();
    let line: string | null = 'before';
    act(() => {
      line = showServerErrors(form, refused('Check the form', { email: 'Enter a valid email', role: 'x' }), [
        'name',
        'email',
      ]);
    });
    expect(line).toBeNull();
    expect(form.getFieldState('email').error?.message).toBe('Enter a valid email');
    expect(form.getFieldState('name').error).toBeUndefined();
    expect(document.activeElement?.getAttribute('aria-label')).toBe('Email');
  });

  it('a refusal no field can show becomes the form’s own line: the server’s message, or the fallback', () => {
    const form = renderForm();
    expect(showServerErrors(form, refused('Too many attempts', { role: 'x' }), ['name', 'email'])).toBe(
      'Too many attempts',
    );
    expect(showServerErrors(form, new TypeError('Failed to fetch'), ['name'], 'Could not sign in')).toBe(
      'Could not sign in',
    );
    expect(form.getFieldState('name').error).toBeUndefined();
  });
});

describe('the state forms’ counterparts (the console sections)', () => {
  it('zodFieldErrors keys each refusal by the path segment asked for, the first message per field', () => {
    const issues = [
      { path: ['quota', 'ticketTypeIds', 0], message: 'Choose a ticket type of this event' },
      { path: ['quota', 'capacity'], message: 'Capacity must be at least 1' },
      { path: ['quota', 'capacity'], message: 'a second message, not shown' },
    ];
    expect(zodFieldErrors(issues, 1)).toEqual({
      ticketTypeIds: 'Choose a ticket type of this event',
      capacity: 'Capacity must be at least 1',
    });
    expect(zodFieldErrors(issues, -1)).toMatchObject({ 0: 'Choose a ticket type of this event' });
  });

  it('serverRefusalOf gives the field messages, or else the form’s own line', () => {
    expect(serverRefusalOf(refused('Check the form', { name: 'Too long' }))).toEqual({
      fields: { name: 'Too long' },
      form: null,
    });
    expect(serverRefusalOf(refused('Sold out'))).toEqual({ fields: {}, form: 'Sold out' });
  });

  it('serverRefusalOf, given the fields a form shows, sends a message about any other to the form’s line', () => {
    const aboutDetails = refused('Enter your name', { details: 'Enter your name' });
    expect(serverRefusalOf(aboutDetails, { fields: ['name', 'email'] })).toEqual({
      fields: {},
      form: 'Enter your name',
    });
    expect(
      serverRefusalOf(refused('Too much', { amountPaise: 'Too much', x: 'y' }), { fields: ['amountPaise'] }),
    ).toEqual({ fields: { amountPaise: 'Too much' }, form: null });
    // No answer at all: the form's own fallback; no error yet: nothing.
    expect(serverRefusalOf(new Error('Failed to fetch'), { fallback: 'Enter an amount' }).form).toBe(
      'Enter an amount',
    );
    expect(serverRefusalOf(null)).toEqual({ fields: {}, form: null });
  });

  it('is the one reader of the server’s field errors: no form reads `fieldErrorsOf` itself', () => {
    const clientDir = path.resolve(import.meta.dirname, '..');
    const readers = sourceFiles(clientDir)
      .filter((file) => /\bfieldErrorsOf\b/.test(readFileSync(file, 'utf8')))
      .map((file) => path.relative(clientDir, file))
      .sort();
    // trpc.ts defines it; this file's helpers are the only ones that call it.
    expect(readers).toEqual(['lib/server-field-errors.ts', 'lib/trpc.ts']);
  });
});

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.tsx?$/.test(entry.name) && !entry.name.includes('.test.') ? [full] : [];
  });
}
