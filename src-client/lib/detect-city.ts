import { type City, type Coordinates, NEAREST_CITY_MAX_KM, nearestCity } from '../../shared/cities.ts';

/** Spec §8 location messages, word for word. */
export const LOCATION_MESSAGES = {
  unsupported: 'Geolocation is not supported by this browser',
  timeout: 'Location request timed out. Please try again or select manually.',
  denied: 'Location access denied. Please enable location permissions and try again.',
  unavailable: 'Location information unavailable. Please select manually.',
  unknown: 'An unknown error occurred. Please select manually.',
  lookupFailed: 'Failed to get location details. Please select manually.',
} as const;

/** Spec §7 and §9: high accuracy, 10 s timeout, a cached position up to 5 minutes old. */
export const GEOLOCATION_OPTIONS: PositionOptions = {
  enableHighAccuracy: true,
  timeout: 10_000,
  maximumAge: 300_000,
};

/** Spec §4 and §9: the detected city is selected 1.5 s after the message shows. */
export const AUTO_SELECT_DELAY_MS = 1_500;

export type Detection =
  | { kind: 'matched'; city: City; message: string }
  | { kind: 'unmatched'; message: string }
  | { kind: 'error'; message: string };

/**
 * Asks the browser for the visitor's position and picks the nearest city of the list by its own
 * coordinates: no third-party geocoding service sees the position. A position farther than
 * NEAREST_CITY_MAX_KM from every listed city asks for a manual choice.
 */
export function detectCity(geolocation: Geolocation | undefined): Promise<Detection> {
  if (!geolocation) return Promise.resolve({ kind: 'error', message: LOCATION_MESSAGES.unsupported });
  return new Promise((resolve) => {
    geolocation.getCurrentPosition(
      (position) => resolve(fromPosition(position.coords)),
      (error) => resolve({ kind: 'error', message: messageForError(error) }),
      GEOLOCATION_OPTIONS,
    );
  });
}

export function fromPosition(coords: Coordinates): Detection {
  if (!Number.isFinite(coords.latitude) || !Number.isFinite(coords.longitude)) {
    return { kind: 'error', message: LOCATION_MESSAGES.lookupFailed };
  }
  const place = describePosition(coords);
  const nearest = nearestCity(coords);
  if (!nearest || nearest.distanceKm > NEAREST_CITY_MAX_KM) {
    return { kind: 'unmatched', message: `Detected: ${place}. Please select your city manually.` };
  }
  return {
    kind: 'matched',
    city: nearest.city,
    message: `Detected: ${place}. Selecting ${nearest.city.name}...`,
  };
}

/** '28.61° N, 77.21° E' */
export function describePosition({ latitude, longitude }: Coordinates): string {
  const lat = `${Math.abs(latitude).toFixed(2)}° ${latitude >= 0 ? 'N' : 'S'}`;
  const lon = `${Math.abs(longitude).toFixed(2)}° ${longitude >= 0 ? 'E' : 'W'}`;
  return `${lat}, ${lon}`;
}

function messageForError(error: GeolocationPositionError): string {
  switch (error.code) {
    case 1:
      return LOCATION_MESSAGES.denied;
    case 2:
      return LOCATION_MESSAGES.unavailable;
    case 3:
      return LOCATION_MESSAGES.timeout;
    default:
      return LOCATION_MESSAGES.unknown;
  }
}
