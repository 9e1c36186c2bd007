import { describe, expect, it } from 'vitest';
import { escapeHtml, renderMail } from './layout.ts';

describe('renderMail', () => {
  it('writes the same content into both bodies, escaping it in the HTML', () => {
    const { html, text } = renderMail({
      heading: 'Reset your password',
      greeting: 'Hi <b>Asha</b>,',
      paragraphs: ['Tom & Jerry'],
      action: { label: 'Reset password', url: 'https://jalsa.example/reset-password?token=a&b' },
      footnote: 'Valid for 30 minutes.',
    });
    expect(html).toContain('Hi &#60;b&#62;Asha&#60;/b&#62;,');
    expect(html).toContain('Tom &#38; Jerry');
    expect(html).toContain('href="https://jalsa.example/reset-password?token=a&#38;b"');
    expect(text).toContain('Hi <b>Asha</b>,');
    expect(text).toContain('Reset password: https://jalsa.example/reset-password?token=a&b');
    expect(text).toContain('Valid for 30 minutes.');
  });

  it('escapes quotes so text cannot leave an attribute', () => {
    expect(escapeHtml(`"'><script>`)).toBe('&#34;&#39;&#62;&#60;script&#62;');
  });
});
