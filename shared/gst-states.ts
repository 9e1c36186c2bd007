import { CITIES, findCity } from './cities.ts';
import { INDIAN_STATES, type IndianState } from './states.ts';

/**
 * The GST state codes (the first two digits of a GSTIN) of the 36 states and union territories.
 * 25 (Daman and Diu) merged into 26 in 2020; 28 (old Andhra Pradesh) is no longer issued.
 */
export const GST_STATE_CODES: Readonly<Record<IndianState, string>> = {
  'Jammu and Kashmir': '01',
  'Himachal Pradesh': '02',
  Punjab: '03',
  Chandigarh: '04',
  Uttarakhand: '05',
  Haryana: '06',
  Delhi: '07',
  Rajasthan: '08',
  'Uttar Pradesh': '09',
  Bihar: '10',
  Sikkim: '11',
  'Arunachal Pradesh': '12',
  Nagaland: '13',
  Manipur: '14',
  Mizoram: '15',
  Tripura: '16',
  Meghalaya: '17',
  Assam: '18',
  'West Bengal': '19',
  Jharkhand: '20',
  Odisha: '21',
  Chhattisgarh: '22',
  'Madhya Pradesh': '23',
  Gujarat: '24',
  'Dadra and Nagar Haveli and Daman and Diu': '26',
  Maharashtra: '27',
  Karnataka: '29',
  Goa: '30',
  Lakshadweep: '31',
  Kerala: '32',
  'Tamil Nadu': '33',
  Puducherry: '34',
  'Andaman and Nicobar Islands': '35',
  Telangana: '36',
  'Andhra Pradesh': '37',
  Ladakh: '38',
};

/** The state a GSTIN was registered in, from its first two digits; undefined for 97/99 and unknown codes. */
export function stateOfGstin(gstin: string): IndianState | undefined {
  const code = gstin.slice(0, 2);
  return INDIAN_STATES.find((s) => GST_STATE_CODES[s] === code);
}

/**
 * The state each listed city is in. The place of supply of admission to an event is where it is held
 * (IGST Act s.12(6)): the venue's state, which the organiser states for a city whose area spans states
 * (`venueStatesOfCity`). This map is the default, and the rule for events saved before venues had a
 * state: 'Delhi/NCR' counts as Delhi and 'Chandigarh' as Chandigarh (docs/decisions/0033).
 */
const CITY_STATES: Readonly<Record<string, IndianState>> = {
  'Delhi/NCR': 'Delhi',
  Mumbai: 'Maharashtra',
  Chandigarh: 'Chandigarh',
  Hyderabad: 'Telangana',
  Ahmedabad: 'Gujarat',
  Kolkata: 'West Bengal',
  Chennai: 'Tamil Nadu',
  Bengaluru: 'Karnataka',
  Pune: 'Maharashtra',
  Agartala: 'Tripura',
  Agra: 'Uttar Pradesh',
  Ajmer: 'Rajasthan',
  Aligarh: 'Uttar Pradesh',
  Amritsar: 'Punjab',
  Aurangabad: 'Maharashtra',
  Bareilly: 'Uttar Pradesh',
  Belagavi: 'Karnataka',
  Bhilai: 'Chhattisgarh',
  Bhopal: 'Madhya Pradesh',
  Bhubaneswar: 'Odisha',
  Coimbatore: 'Tamil Nadu',
  Cuttack: 'Odisha',
  Dehradun: 'Uttarakhand',
  Dhanbad: 'Jharkhand',
  Gangtok: 'Sikkim',
  Goa: 'Goa',
  Guwahati: 'Assam',
  Gwalior: 'Madhya Pradesh',
  Hubballi: 'Karnataka',
  Imphal: 'Manipur',
  Indore: 'Madhya Pradesh',
  Jabalpur: 'Madhya Pradesh',
  Jaipur: 'Rajasthan',
  Jalandhar: 'Punjab',
  Jammu: 'Jammu and Kashmir',
  Jamshedpur: 'Jharkhand',
  Jhansi: 'Uttar Pradesh',
  Jodhpur: 'Rajasthan',
  Kanpur: 'Uttar Pradesh',
  Kochi: 'Kerala',
  Kolhapur: 'Maharashtra',
  Kota: 'Rajasthan',
  Kozhikode: 'Kerala',
  Leh: 'Ladakh',
  Lucknow: 'Uttar Pradesh',
  Ludhiana: 'Punjab',
  Madurai: 'Tamil Nadu',
  Manali: 'Himachal Pradesh',
  Mangaluru: 'Karnataka',
  Meerut: 'Uttar Pradesh',
  Moradabad: 'Uttar Pradesh',
  Mysuru: 'Karnataka',
  Nagpur: 'Maharashtra',
  Nashik: 'Maharashtra',
  Nellore: 'Andhra Pradesh',
  Patna: 'Bihar',
  Prayagraj: 'Uttar Pradesh',
  Puducherry: 'Puducherry',
  Raipur: 'Chhattisgarh',
  Rajkot: 'Gujarat',
  Ranchi: 'Jharkhand',
  Rishikesh: 'Uttarakhand',
  Salem: 'Tamil Nadu',
  Shillong: 'Meghalaya',
  Shimla: 'Himachal Pradesh',
  Siliguri: 'West Bengal',
  Solapur: 'Maharashtra',
  Srinagar: 'Jammu and Kashmir',
  Surat: 'Gujarat',
  Thiruvananthapuram: 'Kerala',
  Thrissur: 'Kerala',
  Tiruchirappalli: 'Tamil Nadu',
  Tirupati: 'Andhra Pradesh',
  Udaipur: 'Rajasthan',
  Vadodara: 'Gujarat',
  Varanasi: 'Uttar Pradesh',
  Vijayawada: 'Andhra Pradesh',
  Visakhapatnam: 'Andhra Pradesh',
  Warangal: 'Telangana',
};

/** The state of an event's city (any alias); undefined for a city not on the list. */
export function stateOfCity(city: string): IndianState | undefined {
  const found = findCity(city);
  return found ? CITY_STATES[found.name] : undefined;
}

/** Every listed city has a state (checked by the unit test, so a city added later cannot miss one). */
export const CITIES_WITHOUT_STATE = CITIES.filter((c) => !CITY_STATES[c.name]).map((c) => c.name);

/**
 * The states a venue listed under a city may be in. The NCR spans Delhi, Haryana (Gurugram, Faridabad)
 * and Uttar Pradesh (Noida, Ghaziabad); the Chandigarh tricity spans Chandigarh, Punjab (Mohali) and
 * Haryana (Panchkula). Every other listed city is in one state.
 */
const CITY_AREA_STATES: Readonly<Record<string, readonly IndianState[]>> = {
  'Delhi/NCR': ['Delhi', 'Haryana', 'Uttar Pradesh'],
  Chandigarh: ['Chandigarh', 'Punjab', 'Haryana'],
};

/** The states an event's venue may be in, given its city: one for most cities, several for an area. */
export function venueStatesOfCity(city: string): readonly IndianState[] {
  const found = findCity(city);
  if (!found) return [];
  const area = CITY_AREA_STATES[found.name];
  if (area) return area;
  const state = CITY_STATES[found.name];
  return state ? [state] : [];
}

/** The venue's state when the city alone says it; undefined when the organiser must choose. */
export function defaultVenueState(city: string): IndianState | undefined {
  const states = venueStatesOfCity(city);
  return states.length === 1 ? states[0] : undefined;
}

/**
 * Whether the organiser still has to say which state the venue is in: the city's area spans states and no
 * one of them is stated. Publishing waits for it, and a registered organiser's tickets are not sold
 * without it (issue 36).
 */
export function venueStateMissing(event: { city: string; venueState: string | null }): boolean {
  const states = venueStatesOfCity(event.city);
  return states.length > 1 && !states.some((s) => s === event.venueState);
}

/**
 * The place of supply of admission to an event (IGST Act s.12(6): where it is held): the venue's state
 * the organiser stated, when it is one of the city's; else the city's state (the rule before venues had
 * a state, kept for events that have none: a registered organiser's such event in a city spanning states
 * sells nothing until its state is set, `venueStateMissing`, so only an unregistered organiser's sale or
 * a payment already under way reaches it). Undefined only for a city not on the list.
 */
export function placeOfSupplyOfEvent(event: {
  city: string;
  venueState: string | null;
}): IndianState | undefined {
  const states = venueStatesOfCity(event.city);
  const stated = states.find((s) => s === event.venueState);
  return stated ?? stateOfCity(event.city);
}

/**
 * Union territories without a legislature: their state-level head is UTGST (UTGST Act, 2017), not SGST.
 * Delhi, Puducherry and Jammu and Kashmir have legislatures and levy SGST.
 */
export const UTS_WITHOUT_LEGISLATURE: readonly IndianState[] = [
  'Chandigarh',
  'Dadra and Nagar Haveli and Daman and Diu',
  'Lakshadweep',
  'Andaman and Nicobar Islands',
  'Ladakh',
];

export type StateTaxHead = 'SGST' | 'UTGST';

/** The head an intra-state supply's second half is levied under, by the place of supply. */
export function stateTaxHeadOf(placeOfSupply: string): StateTaxHead {
  return (UTS_WITHOUT_LEGISLATURE as readonly string[]).includes(placeOfSupply) ? 'UTGST' : 'SGST';
}

/**
 * The place of supply of the platform's fee (IGST Act s.12(2)): for a registered recipient the state of
 * their GSTIN, else the state they gave at checkout.
 */
export function feePlaceOfSupply(buyer: { state: string; buyerGstin?: string | null }): string {
  return (buyer.buyerGstin && stateOfGstin(buyer.buyerGstin)) || buyer.state;
}
