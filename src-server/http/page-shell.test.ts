import { describe, expect, it } from 'vitest';
import { pathShell } from './page-shell.ts';

describe('pathShell', () => {
  it("shows the ticket page's loading text with the booking ID, escaped", () => {
    const { body } = pathShell('/ticket/BK-1%3Cb%3E');
    expect(body).toContain('<p>Loading ticket...</p>');
    expect(body).toContain('Booking ID: BK-1&#60;b&#62;');
    expect(body).not.toContain('<b>');
  });

  it('keeps a malformed escape as it came, and the other pages their own texts', () => {
    expect(pathShell('/ticket/BK%E0%A4').body).toContain('Booking ID: BK%E0%A4');
    expect(pathShell('/my-bookings').body).toContain('Loading your bookings...');
    expect(pathShell('/profile').body).toContain('Loading user data...');
    expect(pathShell('/contact').body).not.toContain('role="status"');
  });
});
