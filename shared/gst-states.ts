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
 * The state each listed city is in: the place of supply of admission to an event is where it is held
 * (IGST Act s.12(5)), and an event names only its city. 'Delhi/NCR' counts as Delhi: the list has no
 * finer place for Gurugram or Noida (docs/decisions/0024-gst-invoices.md).
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
