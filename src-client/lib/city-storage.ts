import { useSyncExternalStore } from 'react';
import {
  CITY_CODES,
  type City,
  DEFAULT_CITY_NAME,
  findCity,
  SELECTED_CITY_COOKIE,
  SELECTED_CITY_DATA_KEY,
  SELECTED_CITY_KEY,
  type SelectedCityData,
} from '../../shared/cities.ts';

export interface SelectedCity {
  /** The name in local storage, or null when the visitor has not chosen yet. */
  storedName: string | null;
  /** What the page uses: the stored name, else the default 'Delhi'. */
  name: string;
  /** The list's city for that name or alias (Delhi → Delhi/NCR); undefined for a name typed as given. */
  city: City | undefined;
  /** The top bar's short code, or 'Select' when nothing is chosen or the name has no code. */
  code: string;
}

/** The chosen city, kept in local storage (spec §3) and shared by every component that reads it. */
export function useSelectedCity(): SelectedCity {
  const storedName = useSyncExternalStore(subscribe, readStoredName, () => null);
  return describe(storedName);
}

/** The chosen city outside React (a route loader). */
export function selectedCityNow(): SelectedCity {
  return describe(typeof window === 'undefined' ? null : readStoredName());
}

export function describe(storedName: string | null): SelectedCity {
  const name = storedName ?? DEFAULT_CITY_NAME;
  const city = findCity(name);
  const code = storedName && city ? (CITY_CODES[city.name] ?? 'Select') : 'Select';
  return { storedName, name: city?.name ?? name, city, code };
}

/**
 * Saves a choice (spec §4): a listed city or alias is stored under its list name with its coordinates;
 * an unknown typed name is saved as given, without coordinates.
 */
export function saveSelectedCity(typed: string): void {
  const city = findCity(typed);
  const name = city?.name ?? typed.trim();
  if (!name) return;
  const data: SelectedCityData = { name, coordinates: city?.coordinates ?? null };
  try {
    localStorage.setItem(SELECTED_CITY_KEY, name);
    localStorage.setItem(SELECTED_CITY_DATA_KEY, JSON.stringify(data));
  } catch {
    // Storage can be unavailable (private mode, quota): the choice then lasts for this page only.
    memoryChoice = name;
  }
  keepCityCookie();
  for (const listener of listeners) listener();
}

let memoryChoice: string | null = null;
const listeners = new Set<() => void>();

function subscribe(listener: () => void) {
  listeners.add(listener);
  window.addEventListener('storage', listener);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', listener);
  };
}

function readStoredName(): string | null {
  try {
    return localStorage.getItem(SELECTED_CITY_KEY) ?? memoryChoice;
  } catch {
    return memoryChoice;
  }
}

/**
 * Copies the stored choice into a cookie, so the server can put that city's home listing inside the
 * page (src-server/http/client.ts). Called on each choice and once at start, for a choice made before
 * the cookie existed.
 */
export function keepCityCookie(): void {
  const name = readStoredName();
  if (name === null) return;
  // biome-ignore lint/suspicious/noDocumentCookie: one plain value; the Cookie Store API is not in every phone's browser.
  document.cookie = `${SELECTED_CITY_COOKIE}=${encodeURIComponent(name)}; path=/; max-age=31536000; samesite=lax`;
}
