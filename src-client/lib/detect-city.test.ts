import { describe, expect, it } from 'vitest';
import { detectCity, GEOLOCATION_OPTIONS, LOCATION_MESSAGES } from './detect-city.ts';

/** A stand-in for navigator.geolocation that answers with a position or an error code. */
function fakeGeolocation(answer: { latitude: number; longitude: number } | { code: number }) {
  const calls: (PositionOptions | undefined)[] = [];
  const geolocation = {
    getCurrentPosition(ok: PositionCallback, fail?: PositionErrorCallback | null, options?: PositionOptions) {
      calls.push(options);
      if ('code' in answer) fail?.({ code: answer.code, message: 'x' } as GeolocationPositionError);
      else ok({ coords: answer } as GeolocationPosition);
    },
  } as unknown as Geolocation;
  return { geolocation, calls };
}

describe('location detection', () => {
  it('asks with high accuracy, a 10 s timeout and a 5 minute cache, and picks the nearest city', async () => {
    const { geolocation, calls } = fakeGeolocation({ latitude: 28.4595, longitude: 77.0266 }); // Gurugram
    const result = await detectCity(geolocation);
    expect(calls).toEqual([{ enableHighAccuracy: true, timeout: 10_000, maximumAge: 300_000 }]);
    expect(GEOLOCATION_OPTIONS.maximumAge).toBe(300_000);
    expect(result).toMatchObject({
      kind: 'matched',
      message: 'Detected: 28.46° N, 77.03° E. Selecting Delhi/NCR...',
    });
  });

  it('asks for a manual choice far from every listed city', async () => {
    const { geolocation } = fakeGeolocation({ latitude: 20, longitude: 65 });
    expect(await detectCity(geolocation)).toEqual({
      kind: 'unmatched',
      message: 'Detected: 20.00° N, 65.00° E. Please select your city manually.',
    });
  });

  it('words every browser failure as the spec does', async () => {
    expect((await detectCity(undefined)).message).toBe('Geolocation is not supported by this browser');
    const messages = await Promise.all(
      [1, 2, 3, 9].map(async (code) => (await detectCity(fakeGeolocation({ code }).geolocation)).message),
    );
    expect(messages).toEqual([
      LOCATION_MESSAGES.denied,
      LOCATION_MESSAGES.unavailable,
      'Location request timed out. Please try again or select manually.',
      'An unknown error occurred. Please select manually.',
    ]);
    expect(LOCATION_MESSAGES.denied).toBe(
      'Location access denied. Please enable location permissions and try again.',
    );
    expect(LOCATION_MESSAGES.unavailable).toBe('Location information unavailable. Please select manually.');
  });
});
