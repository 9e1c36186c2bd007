import { describe, expect, it } from 'vitest';
import {
  CITIES,
  CITY_CODES,
  citiesByDistance,
  DEFAULT_CITY_NAME,
  findCity,
  NEAREST_CITY_MAX_KM,
  nearestCity,
  POPULAR_CITIES,
  searchCities,
} from './cities.ts';

const names = (query: string) => searchCities(query).map((c) => c.name);

describe('the city list', () => {
  it('has about 70 cities, nine popular ones with icons, and unique three-letter codes', () => {
    expect(CITIES.length).toBeGreaterThanOrEqual(65);
    expect(CITIES.length).toBeLessThanOrEqual(80);
    expect(POPULAR_CITIES.map((c) => c.name)).toEqual([
      'Delhi/NCR',
      'Mumbai',
      'Chandigarh',
      'Hyderabad',
      'Ahmedabad',
      'Kolkata',
      'Chennai',
      'Bengaluru',
      'Pune',
    ]);
    expect(POPULAR_CITIES.every((c) => c.icon)).toBe(true);
    const codes = CITIES.map((c) => c.code);
    expect(new Set(codes).size).toBe(codes.length);
    expect(codes.every((code) => /^[A-Z]{3}$/.test(code))).toBe(true);
    expect(CITY_CODES).toMatchObject({ 'Delhi/NCR': 'DEL', Mumbai: 'MUM', Bengaluru: 'BLR', Pune: 'PUN' });
  });

  it('resolves the default city Delhi to Delhi/NCR', () => {
    expect(findCity(DEFAULT_CITY_NAME)?.name).toBe('Delhi/NCR');
    expect(findCity('bangalore')?.name).toBe('Bengaluru');
    expect(findCity('Atlantis')).toBeUndefined();
  });
});

describe('city search', () => {
  it('finds cities through their aliases, ignoring case', () => {
    expect(names('bangalore')).toEqual(['Bengaluru']);
    expect(names('BOMBAY')).toEqual(['Mumbai']);
    expect(names('Navi Mumbai')[0]).toBe('Mumbai');
    expect(names('thane')).toContain('Mumbai');
    for (const ncr of ['Gurgaon', 'noida', 'Faridabad', 'ghaziabad']) expect(names(ncr)[0]).toBe('Delhi/NCR');
  });

  it('matches by substring and by subsequence, best matches first', () => {
    // Substring matches (Faridabad and Ghaziabad are Delhi/NCR aliases) keep the list's order.
    expect(names('bad').slice(0, 4)).toEqual(['Delhi/NCR', 'Hyderabad', 'Ahmedabad', 'Aurangabad']);
    // 'hyd' is a prefix of Hyderabad; 'hbd' only a subsequence of it.
    expect(names('hyd')[0]).toBe('Hyderabad');
    expect(names('hbd')).toContain('Hyderabad');
    expect(names('blr')).toContain('Bengaluru'); // b…l…r in "bangalore"
    expect(names('pne')).toContain('Pune');
  });

  it('returns nothing for text no city contains, and everything for an empty query', () => {
    expect(searchCities('qqxz')).toEqual([]);
    expect(searchCities('   ')).toHaveLength(CITIES.length);
  });
});

describe('nearest city', () => {
  it('picks the listed city closest to a position', () => {
    // Cyber Hub, Gurugram → Delhi/NCR; Koramangala → Bengaluru; Hinjewadi → Pune.
    expect(nearestCity({ latitude: 28.495, longitude: 77.089 })?.city.name).toBe('Delhi/NCR');
    expect(nearestCity({ latitude: 12.9352, longitude: 77.6245 })?.city.name).toBe('Bengaluru');
    expect(nearestCity({ latitude: 18.5913, longitude: 73.7389 })?.city.name).toBe('Pune');
  });

  it('reports the distance, so a position far from every city can be told apart', () => {
    const mid = nearestCity({ latitude: 20.0, longitude: 65.0 }); // the Arabian Sea
    expect(mid?.distanceKm).toBeGreaterThan(NEAREST_CITY_MAX_KM);
    const near = nearestCity({ latitude: 19.2183, longitude: 72.9781 }); // Thane
    expect(near?.city.name).toBe('Mumbai');
    expect(near?.distanceKm).toBeLessThan(NEAREST_CITY_MAX_KM);
  });

  it('orders other cities by distance', () => {
    const fromPune = citiesByDistance(findCity('Pune')!.coordinates).map((c) => c.name);
    expect(fromPune[0]).toBe('Mumbai');
    expect(fromPune).not.toContain('Pune');
  });
});
