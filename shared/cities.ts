/**
 * The local city list (spec §3 "City"): about 70 Indian cities with coordinates and aliases. The nine
 * popular ones carry an icon. Events name their city by `name`; people may type any alias.
 */
export interface Coordinates {
  latitude: number;
  longitude: number;
}

export interface City {
  name: string;
  /** Three-letter code shown on the top bar's city button. */
  code: string;
  coordinates: Coordinates;
  aliases: string[];
  /** Only the nine popular cities have one: a landmark drawing under public/images/cities/. */
  icon?: string;
}

/** What local storage holds under SELECTED_CITY_DATA_KEY. */
export interface SelectedCityData {
  name: string;
  coordinates: Coordinates | null;
}

/** Local storage keys (spec §3). */
export const SELECTED_CITY_KEY = 'selectedCity';
export const SELECTED_CITY_DATA_KEY = 'selectedCityData';
/**
 * The chosen city's name also travels as a cookie, so the server can put that city's home listing in
 * the page (src-server/http/client.ts); local storage stays the client's own record.
 */
export const SELECTED_CITY_COOKIE = 'selectedCity';

/** Spec §4: 'Delhi' when nothing is stored; it resolves to Delhi/NCR through the aliases. */
export const DEFAULT_CITY_NAME = 'Delhi';

const popular = (
  name: string,
  code: string,
  latitude: number,
  longitude: number,
  aliases: string[],
  iconSlug: string,
): City => ({
  name,
  code,
  coordinates: { latitude, longitude },
  aliases,
  icon: `/images/cities/${iconSlug}.svg`,
});

const city = (
  name: string,
  code: string,
  latitude: number,
  longitude: number,
  aliases: string[] = [],
): City => ({
  name,
  code,
  coordinates: { latitude, longitude },
  aliases,
});

export const POPULAR_CITIES: readonly City[] = [
  popular(
    'Delhi/NCR',
    'DEL',
    28.6139,
    77.209,
    ['Delhi', 'New Delhi', 'NCR', 'Gurgaon', 'Gurugram', 'Noida', 'Greater Noida', 'Faridabad', 'Ghaziabad'],
    'delhi',
  ),
  popular('Mumbai', 'MUM', 19.076, 72.8777, ['Bombay', 'Thane', 'Navi Mumbai'], 'mumbai'),
  popular('Chandigarh', 'CHD', 30.7333, 76.7794, ['Mohali', 'Panchkula', 'Tricity'], 'chandigarh'),
  popular('Hyderabad', 'HYD', 17.385, 78.4867, ['Secunderabad', 'Cyberabad'], 'hyderabad'),
  popular('Ahmedabad', 'AMD', 23.0225, 72.5714, ['Amdavad', 'Gandhinagar'], 'ahmedabad'),
  popular('Kolkata', 'KOL', 22.5726, 88.3639, ['Calcutta', 'Howrah'], 'kolkata'),
  popular('Chennai', 'CHN', 13.0827, 80.2707, ['Madras'], 'chennai'),
  popular('Bengaluru', 'BLR', 12.9716, 77.5946, ['Bangalore'], 'bengaluru'),
  popular('Pune', 'PUN', 18.5204, 73.8567, ['Poona', 'Pimpri-Chinchwad'], 'pune'),
];

export const OTHER_CITIES: readonly City[] = [
  city('Agartala', 'AGT', 23.8315, 91.2868),
  city('Agra', 'AGR', 27.1767, 78.0081),
  city('Ajmer', 'AJM', 26.4499, 74.6399),
  city('Aligarh', 'ALG', 27.8974, 78.088),
  city('Amritsar', 'ATQ', 31.634, 74.8723),
  city('Aurangabad', 'AUR', 19.8762, 75.3433, ['Chhatrapati Sambhajinagar']),
  city('Bareilly', 'BRY', 28.367, 79.4304),
  city('Belagavi', 'BGM', 15.8497, 74.4977, ['Belgaum']),
  city('Bhilai', 'BHI', 21.1938, 81.3509, ['Durg']),
  city('Bhopal', 'BHO', 23.2599, 77.4126),
  city('Bhubaneswar', 'BBI', 20.2961, 85.8245),
  city('Coimbatore', 'CBE', 11.0168, 76.9558, ['Kovai']),
  city('Cuttack', 'CTC', 20.4625, 85.883),
  city('Dehradun', 'DED', 30.3165, 78.0322),
  city('Dhanbad', 'DHN', 23.7957, 86.4304),
  city('Gangtok', 'GTK', 27.3389, 88.6065),
  city('Goa', 'GOI', 15.4909, 73.8278, ['Panaji', 'Panjim', 'Margao', 'Vasco da Gama']),
  city('Guwahati', 'GAU', 26.1445, 91.7362),
  city('Gwalior', 'GWL', 26.2183, 78.1828),
  city('Hubballi', 'HBX', 15.3647, 75.124, ['Hubli', 'Dharwad']),
  city('Imphal', 'IMF', 24.817, 93.9368),
  city('Indore', 'IDR', 22.7196, 75.8577),
  city('Jabalpur', 'JBP', 23.1815, 79.9864),
  city('Jaipur', 'JAI', 26.9124, 75.7873, ['Pink City']),
  city('Jalandhar', 'JUC', 31.326, 75.5762),
  city('Jammu', 'JMU', 32.7266, 74.857),
  city('Jamshedpur', 'JSR', 22.8046, 86.2029, ['Tatanagar']),
  city('Jhansi', 'JHS', 25.4484, 78.5685),
  city('Jodhpur', 'JDH', 26.2389, 73.0243),
  city('Kanpur', 'KNP', 26.4499, 80.3319),
  city('Kochi', 'COK', 9.9312, 76.2673, ['Cochin', 'Ernakulam']),
  city('Kolhapur', 'KLH', 16.705, 74.2433),
  city('Kota', 'KTA', 25.2138, 75.8648),
  city('Kozhikode', 'CCJ', 11.2588, 75.7804, ['Calicut']),
  city('Leh', 'LEH', 34.1526, 77.5771, ['Ladakh']),
  city('Lucknow', 'LKO', 26.8467, 80.9462),
  city('Ludhiana', 'LDH', 30.901, 75.8573),
  city('Madurai', 'MDU', 9.9252, 78.1198),
  city('Manali', 'MNL', 32.2432, 77.1892),
  city('Mangaluru', 'IXE', 12.9141, 74.856, ['Mangalore']),
  city('Meerut', 'MRT', 28.9845, 77.7064),
  city('Moradabad', 'MBD', 28.8386, 78.7733),
  city('Mysuru', 'MYS', 12.2958, 76.6394, ['Mysore']),
  city('Nagpur', 'NAG', 21.1458, 79.0882),
  city('Nashik', 'NSK', 19.9975, 73.7898, ['Nasik']),
  city('Nellore', 'NLR', 14.4426, 79.9865),
  city('Patna', 'PAT', 25.5941, 85.1376),
  city('Prayagraj', 'PRY', 25.4358, 81.8463, ['Allahabad']),
  city('Puducherry', 'PNY', 11.9416, 79.8083, ['Pondicherry', 'Pondy']),
  city('Raipur', 'RPR', 21.2514, 81.6296),
  city('Rajkot', 'RAJ', 22.3039, 70.8022),
  city('Ranchi', 'RAN', 23.3441, 85.3096),
  city('Rishikesh', 'RSK', 30.0869, 78.2676),
  city('Salem', 'SLM', 11.6643, 78.146),
  city('Shillong', 'SHL', 25.5788, 91.8933),
  city('Shimla', 'SML', 31.1048, 77.1734),
  city('Siliguri', 'SLG', 26.7271, 88.3953),
  city('Solapur', 'SLP', 17.6599, 75.9064),
  city('Srinagar', 'SXR', 34.0837, 74.7973),
  city('Surat', 'SUR', 21.1702, 72.8311),
  city('Thiruvananthapuram', 'TRV', 8.5241, 76.9366, ['Trivandrum']),
  city('Thrissur', 'TCR', 10.5276, 76.2144, ['Trichur']),
  city('Tiruchirappalli', 'TRZ', 10.7905, 78.7047, ['Trichy']),
  city('Tirupati', 'TIR', 13.6288, 79.4192),
  city('Udaipur', 'UDR', 24.5854, 73.7125),
  city('Vadodara', 'VAD', 22.3072, 73.1812, ['Baroda']),
  city('Varanasi', 'VNS', 25.3176, 82.9739, ['Banaras', 'Benares', 'Kashi']),
  city('Vijayawada', 'VGA', 16.5062, 80.648, ['Bezawada']),
  city('Visakhapatnam', 'VIZ', 17.6868, 83.2185, ['Vizag']),
  city('Warangal', 'WGL', 17.9689, 79.5941),
];

export const CITIES: readonly City[] = [...POPULAR_CITIES, ...OTHER_CITIES];

/** City name → three-letter code for the top bar (Delhi/NCR → DEL, Mumbai → MUM, ...). */
export const CITY_CODES: Readonly<Record<string, string>> = Object.fromEntries(
  CITIES.map((c) => [c.name, c.code]),
);

/**
 * Cities whose name or any alias contains the typed text, or has it as a subsequence (spec §5),
 * ignoring case. Better matches come first: exact, then prefix, then substring, then subsequence.
 * An empty query matches everything in list order.
 */
export function searchCities(query: string, cities: readonly City[] = CITIES): City[] {
  const q = query.trim().toLowerCase();
  if (!q) return [...cities];
  const ranked: { city: City; rank: number; index: number }[] = [];
  cities.forEach((c, index) => {
    const rank = Math.min(...[c.name, ...c.aliases].map((text) => matchRank(text.toLowerCase(), q)));
    if (rank < NO_MATCH) ranked.push({ city: c, rank, index });
  });
  return ranked.sort((a, b) => a.rank - b.rank || a.index - b.index).map((r) => r.city);
}

/** The list's city whose name or alias equals `name` (any case), e.g. 'Bangalore' → Bengaluru. */
export function findCity(name: string | null | undefined): City | undefined {
  const wanted = name?.trim().toLowerCase();
  if (!wanted) return undefined;
  return CITIES.find(
    (c) => c.name.toLowerCase() === wanted || c.aliases.some((a) => a.toLowerCase() === wanted),
  );
}

/** Great-circle distance in kilometres (haversine). */
export function distanceKm(a: Coordinates, b: Coordinates): number {
  const rad = Math.PI / 180;
  const dLat = (b.latitude - a.latitude) * rad;
  const dLon = (b.longitude - a.longitude) * rad;
  const h =
    Math.sin(dLat / 2) ** 2 +
    Math.cos(a.latitude * rad) * Math.cos(b.latitude * rad) * Math.sin(dLon / 2) ** 2;
  return 2 * 6371 * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** How far from a listed city a detected position may be and still count as that city. */
export const NEAREST_CITY_MAX_KM = 100;

/**
 * The listed city closest to a position, with its distance. Location detection uses this instead of a
 * third-party reverse geocoder, so it works offline and sends nobody the visitor's position.
 */
export function nearestCity(
  position: Coordinates,
  cities: readonly City[] = CITIES,
): { city: City; distanceKm: number } | null {
  let best: { city: City; distanceKm: number } | null = null;
  for (const c of cities) {
    const d = distanceKm(position, c.coordinates);
    if (!best || d < best.distanceKm) best = { city: c, distanceKm: d };
  }
  return best;
}

/** Cities ordered by distance from `from`, nearest first, `from` itself excluded. */
export function citiesByDistance(from: Coordinates, cities: readonly City[] = CITIES): City[] {
  return cities
    .map((c) => ({ c, d: distanceKm(from, c.coordinates) }))
    .filter((x) => x.d > 0.001)
    .sort((a, b) => a.d - b.d)
    .map((x) => x.c);
}

const NO_MATCH = 4;

function matchRank(text: string, q: string): number {
  if (text === q) return 0;
  if (text.startsWith(q)) return 1;
  if (text.includes(q)) return 2;
  return isSubsequence(q, text) ? 3 : NO_MATCH;
}

function isSubsequence(needle: string, haystack: string): boolean {
  let i = 0;
  for (const ch of haystack) {
    if (ch === needle[i]) i += 1;
    if (i === needle.length) return true;
  }
  return i === needle.length;
}
