import { describe, expect, it } from 'vitest';
import { initialDataTag, pathShell } from './page-shell.ts';

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

  it("paints the gate's own bar at the gate, never the storefront's header", () => {
    expect(pathShell('/gate').body).toContain('Jalsa Gate');
    expect(pathShell('/gate/').body).not.toContain('sticky top-0');
    expect(pathShell('/').body).toContain('sticky top-0');
  });
});

describe('initialDataTag', () => {
  it('writes data no value can break out of, and that JSON.parse reads back unchanged', () => {
    const name = '</script><script>alert(1)</script><!-- & \u2028';
    const tag = initialDataTag([{ path: 'events.byId', input: { id: 'e1' }, data: { name } }]);
    const inner = tag.slice(tag.indexOf('>') + 1, tag.lastIndexOf('</script>'));
    expect(inner).not.toMatch(/[<>&\u2028]/);
    expect(JSON.parse(inner)).toEqual([{ path: 'events.byId', input: { id: 'e1' }, data: { name } }]);
    expect(tag.startsWith('<script type="application/json" id="initial-data">')).toBe(true);
    expect(initialDataTag([])).toBe('');
  });
});
