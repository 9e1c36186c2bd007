import { describe, expect, it } from 'vitest';
import { loadEnv } from '../../env.ts';
import { secureCookies } from './session-user.ts';

describe('secureCookies: Secure outside localhost', () => {
  const development = { env: loadEnv({ NODE_ENV: 'development' }) };

  it('leaves plain-HTTP localhost without Secure, so local development can sign in', () => {
    for (const origin of ['http://localhost:3000', 'http://127.0.0.1:5173', 'http://[::1]:3000']) {
      expect(secureCookies(development, origin), origin).toBe(false);
    }
  });

  it('sets Secure on any other host or over HTTPS, even outside production', () => {
    for (const origin of [
      'http://192.168.1.20:3000',
      'http://tickets.example.in',
      'https://localhost:3000',
    ]) {
      expect(secureCookies(development, origin), origin).toBe(true);
    }
  });

  it('always sets Secure in production', () => {
    const production = { env: loadEnv({ NODE_ENV: 'production', PUBLIC_URL: 'https://tickets.example.in' }) };
    expect(secureCookies(production, 'http://localhost:3000')).toBe(true);
  });
});
