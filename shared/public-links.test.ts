import { describe, expect, it } from 'vitest';
import { eventShareLink, publicLinkBase } from './public-links.ts';

describe('publicLinkBase', () => {
  it('is PUBLIC_URL without a trailing slash', () => {
    expect(publicLinkBase('https://tickets.example.in/', 'http://localhost:3000')).toBe(
      'https://tickets.example.in',
    );
    expect(publicLinkBase('https://tickets.example.in', 'http://localhost:3000')).toBe(
      'https://tickets.example.in',
    );
  });

  it('drops a path in PUBLIC_URL: the app is served from the root of its origin', () => {
    expect(publicLinkBase('https://example.in/jalsa/', 'http://localhost:3000')).toBe('https://example.in');
    expect(publicLinkBase('https://example.in:8443/jalsa?x=1', 'http://localhost:3000')).toBe(
      'https://example.in:8443',
    );
  });

  it("is the fallback's origin when PUBLIC_URL is unset", () => {
    expect(publicLinkBase(undefined, 'http://127.0.0.1:4000/trpc/auth.signUp?batch=1')).toBe(
      'http://127.0.0.1:4000',
    );
    expect(publicLinkBase(undefined, 'http://localhost:3000')).toBe('http://localhost:3000');
  });
});

describe('eventShareLink', () => {
  it('is {base}/event/{id}, the id encoded', () => {
    expect(eventShareLink('https://tickets.example.in', 'sufi nights/delhi')).toBe(
      'https://tickets.example.in/event/sufi%20nights%2Fdelhi',
    );
  });
});
