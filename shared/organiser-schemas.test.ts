import { describe, expect, it } from 'vitest';
import { isValidGstin, OrganiserRequestInput } from './organiser-schemas.ts';

describe('isValidGstin', () => {
  it('accepts real GSTINs and rejects a changed check character, a bad state code or a bad shape', () => {
    expect(isValidGstin('27AAPFU0939F1ZV')).toBe(true);
    expect(isValidGstin('29AAGCB7383J1Z4')).toBe(true);
    expect(isValidGstin('27AAPFU0939F1ZW')).toBe(false);
    expect(isValidGstin('39AAPFU0939F1ZV')).toBe(false);
    expect(isValidGstin('27AAPFU0939F1XV')).toBe(false);
    expect(isValidGstin('27AAPFU0939F1Z')).toBe(false);
    expect(isValidGstin('27aapfu0939f1zv')).toBe(false);
  });
});

describe('OrganiserRequestInput', () => {
  const valid = {
    organisationName: '  Tala Collective ',
    contactPhone: '+91 98765-43210',
    city: 'bombay',
    whatTheyRun: 'Jazz nights',
    gstin: ' 27aapfu0939f1zv ',
  };

  it('normalises what people type: trimmed name, bare mobile number, the city list’s name, upper-case GSTIN', () => {
    expect(OrganiserRequestInput.parse(valid)).toEqual({
      organisationName: 'Tala Collective',
      contactPhone: '9876543210',
      city: 'Mumbai',
      whatTheyRun: 'Jazz nights',
      gstin: '27AAPFU0939F1ZV',
    });
  });

  it('leaves GSTIN optional', () => {
    const { gstin: _, ...rest } = valid;
    expect(OrganiserRequestInput.parse(rest).gstin).toBe('');
  });

  it('refuses over-long input at its limit', () => {
    expect(OrganiserRequestInput.safeParse({ ...valid, organisationName: 'x'.repeat(121) }).success).toBe(
      false,
    );
    expect(OrganiserRequestInput.safeParse({ ...valid, organisationName: 'x'.repeat(120) }).success).toBe(
      true,
    );
    expect(OrganiserRequestInput.safeParse({ ...valid, whatTheyRun: 'x'.repeat(1001) }).success).toBe(false);
  });
});
