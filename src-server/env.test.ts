import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseEnv } from 'node:util';
import { describe, expect, it } from 'vitest';
import { isValidGstinValue } from '../shared/gst-schemas.ts';
import { DEFAULT_POOL_SIZE } from './db/engine/pool-size.ts';
import {
  DATABASE_POOL_SIZE_INVALID,
  DATABASE_URL_INVALID,
  DEMO_PLATFORM_GST,
  loadEnv,
  PLATFORM_E_INVOICING_NEEDS_PIN,
  S3_ENDPOINT_INVALID,
} from './env.ts';

describe('loadEnv', () => {
  it('runs locally with no settings at all', () => {
    const env = loadEnv({});
    expect(env.PORT).toBe(3000);
    expect(env.DATA_DIR).toBe('./data');
    expect(env.RAZORPAY_KEY_ID).toBeUndefined();
  });

  it('treats empty optional settings as unset, as .env.example leaves them', () => {
    expect(loadEnv({ RESEND_API_KEY: '', GOOGLE_CLIENT_ID: ' ' }).RESEND_API_KEY).toBeUndefined();
  });

  it('starts from the shipped .env.example as it is, every empty line meaning unset (issue 37)', () => {
    const shipped = parseEnv(readFileSync(path.join(import.meta.dirname, '../.env.example'), 'utf8'));
    expect(Object.values(shipped)).toContain('');
    const env = loadEnv({ ...shipped });
    expect(env.APP_SECRET).toBeUndefined();
    expect(env.SEED_DEMO_DATA).toBe(true);
    // The production first run the README describes: the file with its three production lines filled in.
    const production = loadEnv({
      ...shipped,
      NODE_ENV: 'production',
      PUBLIC_URL: 'https://tickets.example.in',
      ALLOW_PAYMENT_SIMULATOR: 'true',
      ALLOW_FILE_MAILBOX: 'true',
    });
    expect(production.SEED_DEMO_DATA).toBe(false);
  });

  it('listens on loopback only behind a trusted proxy, unless told otherwise (issue 37)', () => {
    expect(loadEnv({}).HOST).toBe('0.0.0.0');
    expect(loadEnv({ TRUST_PROXY: 'true' }).HOST).toBe('127.0.0.1');
    expect(loadEnv({ TRUST_PROXY: 'true', HOST: '' }).HOST).toBe('127.0.0.1');
    expect(loadEnv({ TRUST_PROXY: 'true', HOST: '0.0.0.0' }).HOST).toBe('0.0.0.0');
  });

  it('fails fast with a clear message for a bad value', () => {
    expect(() => loadEnv({ PORT: 'eighty' })).toThrow(/PORT/);
  });

  it('requires PUBLIC_URL in production, so links are never built from a forged Host header', () => {
    expect(() => loadEnv({ NODE_ENV: 'production' })).toThrow(/PUBLIC_URL is required/);
    expect(loadEnv({ NODE_ENV: 'production', PUBLIC_URL: 'https://tickets.example.in' }).PUBLIC_URL).toBe(
      'https://tickets.example.in',
    );
  });
});

describe('database', () => {
  it('is the SQLite file in DATA_DIR unless DATABASE_URL names a PostgreSQL', () => {
    expect(loadEnv({}).DATABASE_URL).toBeUndefined();
    expect(loadEnv({ DATABASE_URL: '' }).DATABASE_URL).toBeUndefined();
    expect(loadEnv({ DATABASE_URL: 'postgres://jalsa:pw@db:5432/jalsa' }).DATABASE_URL).toBe(
      'postgres://jalsa:pw@db:5432/jalsa',
    );
    expect(loadEnv({ DATABASE_URL: 'postgresql://db/jalsa' }).DATABASE_URL).toBe('postgresql://db/jalsa');
  });

  it('refuses any other URL with a message that does not repeat it (it holds a password)', () => {
    for (const url of [
      'mysql://jalsa:hunter2@db/jalsa',
      'sqlite:./data/jalsa.db',
      'db.internal:5432',
      'postgres://',
    ]) {
      const refusal = () => loadEnv({ DATABASE_URL: url });
      expect(refusal).toThrow(DATABASE_URL_INVALID);
      expect(refusal).not.toThrow(/hunter2/);
    }
  });

  it('opens a pool of DATABASE_POOL_SIZE connections, 1 to 200, 10 by default', () => {
    expect(loadEnv({}).DATABASE_POOL_SIZE).toBe(DEFAULT_POOL_SIZE);
    expect(loadEnv({ DATABASE_POOL_SIZE: '' }).DATABASE_POOL_SIZE).toBe(DEFAULT_POOL_SIZE);
    expect(loadEnv({ DATABASE_POOL_SIZE: '40' }).DATABASE_POOL_SIZE).toBe(40);
    for (const size of ['0', '201', '2.5', 'ten']) {
      expect(() => loadEnv({ DATABASE_POOL_SIZE: size })).toThrow(DATABASE_POOL_SIZE_INVALID);
    }
  });
});

describe('platform GST registration', () => {
  const full = {
    PLATFORM_GSTIN: '29AAGCB7383J1Z4',
    PLATFORM_LEGAL_NAME: 'Jalsa Technologies Pvt Ltd',
    PLATFORM_ADDRESS: 'Indiranagar, Bengaluru',
    PLATFORM_STATE: 'Karnataka',
  };
  it('is all four settings or none, with a valid GSTIN of that state', () => {
    expect(loadEnv({ SEED_DEMO_DATA: 'false' }).PLATFORM_GSTIN).toBeUndefined();
    expect(loadEnv(full).PLATFORM_GSTIN).toBe('29AAGCB7383J1Z4');
    expect(() => loadEnv({ ...full, PLATFORM_ADDRESS: '' })).toThrow(/PLATFORM_GSTIN/);
    expect(() => loadEnv({ ...full, PLATFORM_GSTIN: '29AAGCB7383J1Z5' })).toThrow(/PLATFORM_GSTIN/);
    expect(() => loadEnv({ ...full, PLATFORM_STATE: 'Maharashtra' })).toThrow(/PLATFORM_GSTIN/);
  });

  it('is the demo registration with the demo data outside production, and never invented in production', () => {
    expect(loadEnv({})).toMatchObject(DEMO_PLATFORM_GST);
    expect(isValidGstinValue(DEMO_PLATFORM_GST.PLATFORM_GSTIN)).toBe(true);
    expect(loadEnv({ NODE_ENV: 'test' }).PLATFORM_GSTIN).toBe(DEMO_PLATFORM_GST.PLATFORM_GSTIN);
    // A configured registration wins over the demo's.
    expect(loadEnv(full).PLATFORM_LEGAL_NAME).toBe('Jalsa Technologies Pvt Ltd');
    const production = { NODE_ENV: 'production', PUBLIC_URL: 'https://tickets.example.in' };
    expect(loadEnv({ ...production, SEED_DEMO_DATA: 'true' }).PLATFORM_GSTIN).toBeUndefined();
  });
});

describe('demo data', () => {
  it('is added by default in development and tests, never unasked in production', () => {
    expect(loadEnv({}).SEED_DEMO_DATA).toBe(true);
    expect(loadEnv({ NODE_ENV: 'test' }).SEED_DEMO_DATA).toBe(true);
    const production = { NODE_ENV: 'production', PUBLIC_URL: 'https://tickets.example.in' };
    expect(loadEnv(production).SEED_DEMO_DATA).toBe(false);
    expect(loadEnv({ ...production, SEED_DEMO_DATA: 'true' }).SEED_DEMO_DATA).toBe(true);
    expect(loadEnv({ SEED_DEMO_DATA: 'false' }).SEED_DEMO_DATA).toBe(false);
  });
});

describe('e-invoicing IRP connection', () => {
  it('is a URL and a token together, or neither (empty values count as unset)', () => {
    expect(loadEnv({ EINVOICE_IRP_URL: '', EINVOICE_IRP_TOKEN: '' }).EINVOICE_IRP_URL).toBeUndefined();
    const both = loadEnv({ EINVOICE_IRP_URL: 'https://gsp.example.in', EINVOICE_IRP_TOKEN: 't0ken' });
    expect(both.EINVOICE_IRP_URL).toBe('https://gsp.example.in');
    expect(() => loadEnv({ EINVOICE_IRP_URL: 'https://gsp.example.in' })).toThrow(/go together/);
    expect(() => loadEnv({ EINVOICE_IRP_TOKEN: 't0ken' })).toThrow(/go together/);
    expect(() => loadEnv({ EINVOICE_IRP_URL: 'not a url', EINVOICE_IRP_TOKEN: 't0ken' })).toThrow(
      /EINVOICE_IRP_URL/,
    );
  });

  it('PLATFORM_E_INVOICING_SINCE is a day, and needs the platform’s own GST registration', () => {
    const platform = {
      SEED_DEMO_DATA: 'false',
      PLATFORM_GSTIN: '29AAGCB7383J1Z4',
      PLATFORM_LEGAL_NAME: 'Jalsa Technologies Pvt Ltd',
      PLATFORM_ADDRESS: 'Indiranagar, Bengaluru 560038',
      PLATFORM_STATE: 'Karnataka',
    };
    expect(loadEnv(platform).PLATFORM_E_INVOICING_SINCE).toBeUndefined();
    expect(
      loadEnv({ ...platform, PLATFORM_E_INVOICING_SINCE: '' }).PLATFORM_E_INVOICING_SINCE,
    ).toBeUndefined();
    expect(
      loadEnv({ ...platform, PLATFORM_E_INVOICING_SINCE: '2026-04-01' }).PLATFORM_E_INVOICING_SINCE,
    ).toBe('2026-04-01');
    expect(() => loadEnv({ ...platform, PLATFORM_E_INVOICING_SINCE: '1 April 2026' })).toThrow(
      /PLATFORM_E_INVOICING_SINCE must be a day/,
    );
    // Not on the demo registration either: it is filled in only when nothing is set.
    expect(() => loadEnv({ PLATFORM_E_INVOICING_SINCE: '2026-04-01' })).toThrow(/needs the platform/);
  });

  it('PLATFORM_E_INVOICING_SINCE needs a PIN code in PLATFORM_ADDRESS, which the IRP requires of the seller', () => {
    const platform = {
      SEED_DEMO_DATA: 'false',
      PLATFORM_GSTIN: '29AAGCB7383J1Z4',
      PLATFORM_LEGAL_NAME: 'Jalsa Technologies Pvt Ltd',
      PLATFORM_ADDRESS: 'Indiranagar, Bengaluru',
      PLATFORM_STATE: 'Karnataka',
      PLATFORM_E_INVOICING_SINCE: '2026-04-01',
    };
    expect(() => loadEnv(platform)).toThrow(PLATFORM_E_INVOICING_NEEDS_PIN);
    // Without e-invoicing the address may be written without one.
    expect(loadEnv({ ...platform, PLATFORM_E_INVOICING_SINCE: '' }).PLATFORM_ADDRESS).toBe(
      'Indiranagar, Bengaluru',
    );
  });

  it('PLATFORM_AATO_10_CRORE says whether the 30-day reporting window applies to the platform; no by default', () => {
    expect(loadEnv({}).PLATFORM_AATO_10_CRORE).toBe(false);
    expect(loadEnv({ PLATFORM_AATO_10_CRORE: 'true' }).PLATFORM_AATO_10_CRORE).toBe(true);
    expect(() => loadEnv({ PLATFORM_AATO_10_CRORE: 'yes' })).toThrow(/PLATFORM_AATO_10_CRORE/);
  });

  describe('an S3 bucket for uploaded images (issue 38)', () => {
    const bucket = {
      S3_BUCKET: 'jalsa-images',
      S3_REGION: 'auto',
      S3_ACCESS_KEY_ID: 'key-id',
      S3_SECRET_ACCESS_KEY: 'very-secret-value',
      S3_ENDPOINT: 'https://account.r2.cloudflarestorage.com',
    };

    it('takes the four settings (and an endpoint), or none: DATA_DIR/uploads', () => {
      expect(loadEnv({}).S3_BUCKET).toBeUndefined();
      expect(loadEnv({ S3_BUCKET: '', S3_FORCE_PATH_STYLE: '' }).S3_FORCE_PATH_STYLE).toBe(false);
      const env = loadEnv({ ...bucket, S3_FORCE_PATH_STYLE: 'true' });
      expect([env.S3_BUCKET, env.S3_REGION, env.S3_FORCE_PATH_STYLE]).toEqual(['jalsa-images', 'auto', true]);
      expect(loadEnv({ ...bucket, S3_ENDPOINT: undefined }).S3_ENDPOINT).toBeUndefined();
    });

    it('refuses to start with part of them, naming what is missing and never a value', () => {
      const refusal = () => loadEnv({ ...bucket, S3_REGION: '', S3_ACCESS_KEY_ID: undefined });
      expect(refusal).toThrow(/S3_BUCKET: .* go together .*Missing: S3_REGION, S3_ACCESS_KEY_ID$/m);
      expect(refusal).not.toThrow(/very-secret-value/);
      expect(() => loadEnv({ S3_ENDPOINT: 'http://minio.internal:9000' })).toThrow(
        /Missing: S3_BUCKET, S3_REGION, S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY/,
      );
    });

    it('refuses an endpoint that is not an http(s) URL', () => {
      expect(() => loadEnv({ ...bucket, S3_ENDPOINT: 'minio.internal:9000' })).toThrow(S3_ENDPOINT_INVALID);
      expect(() => loadEnv({ ...bucket, S3_ENDPOINT: 'ftp://minio.internal' })).toThrow(S3_ENDPOINT_INVALID);
    });
  });
});
