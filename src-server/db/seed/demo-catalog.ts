import type { EventCategory } from '../../../shared/categories.ts';
import type { IndianState } from '../../../shared/states.ts';

/**
 * The demo catalogue as plain facts. demo-events.ts turns each entry into what the event editor is
 * given (details, dates relative to "now", slots, ticket types) and seed.ts creates it through the
 * editor's services; scripts/make-demo-images.ts draws its poster, banner and artist pictures from the
 * same entries. Venues are real places; the events and artists are made up.
 */
export interface DemoEvent {
  id: string;
  name: string;
  category: EventCategory;
  city: string;
  venue: string;
  /**
   * The venue's state, the place of supply (ADR 0033): given where the city's area spans states
   * (Delhi/NCR, Chandigarh), as an organiser must before publishing.
   */
  venueState?: IndianState;
  description: string;
  /** Days after today (India time) of the first date. */
  inDays: number;
  /** Further dates, as days after the first one. */
  moreDays?: number[];
  /** Slot start times on each date, 24-hour India time ('19:30'). */
  slotTimes: string[];
  durationMinutes: number;
  ageLimit: number | null;
  artists: string[];
  /** Ticket types of every slot; at least one on sale, since the event is published like any other. */
  tiers: DemoTier[];
  extraTerms?: string[];
  platformFeeRate?: number;
}

export interface DemoTier {
  key: string;
  name: string;
  rupees: number;
  total: number;
  description: string;
  benefits?: string[];
  persons?: number;
  refundable?: boolean;
  soldOut?: boolean;
  /** On sale from 10:00 AM India time this many days after today, as an organiser's sale window. */
  saleOpensInDays?: number;
}

export const DEMO_EVENTS: DemoEvent[] = [
  {
    id: 'sufi-nights-delhi',
    name: 'Sufi Nights under the Stars',
    category: 'concerts',
    city: 'Delhi/NCR',
    venue: 'Sunder Nursery, Mathura Road, New Delhi',
    venueState: 'Delhi',
    description:
      'An open-air evening of qawwali and Sufi poetry among the Mughal-era gardens of Sunder Nursery. Bring a shawl: the music runs late and the November air turns crisp after sunset.',
    inDays: 3,
    moreDays: [1],
    slotTimes: ['19:00'],
    durationMinutes: 180,
    ageLimit: 5,
    artists: ['Noor-e-Sufi Ensemble', 'Zoya Qureshi'],
    tiers: [
      {
        key: 'silver',
        name: 'Silver',
        rupees: 999,
        total: 400,
        description: 'Lawn seating on durries in the rear enclosure with a clear view of the stage screens.',
        benefits: ['Lawn seating', 'Access to the food court'],
      },
      {
        key: 'gold',
        name: 'Gold',
        rupees: 1999,
        total: 200,
        description:
          'Cushioned seating in the middle enclosure, closer to the stage, with a dedicated entry lane.',
        benefits: ['Cushioned seating', 'Dedicated entry lane', 'One complimentary kahwa'],
        refundable: true,
      },
      {
        key: 'fan-pit',
        name: 'Fan Pit',
        rupees: 2999,
        total: 80,
        description: 'Standing area right in front of the stage.',
        benefits: ['Closest to the stage', 'Festival wristband'],
        soldOut: true,
      },
    ],
  },
  {
    id: 'delhi-green-run',
    name: 'Delhi Run for Green 10K',
    category: 'sports',
    city: 'Delhi/NCR',
    venue: 'Jawaharlal Nehru Stadium, Lodhi Road, New Delhi',
    venueState: 'Delhi',
    description:
      'A timed 10 km run and a 5 km fun run through Lutyens’ Delhi, starting and finishing inside the stadium. Every finisher gets a medal and a sapling to plant.',
    inDays: 9,
    slotTimes: ['06:00'],
    durationMinutes: 240,
    ageLimit: 12,
    artists: [],
    tiers: [
      {
        key: '10k',
        name: '10K Timed Run',
        rupees: 1200,
        total: 1500,
        description: 'Chip-timed 10 km route with hydration points every 2.5 km.',
        benefits: ['Timing chip', 'Finisher medal', 'Race T-shirt'],
      },
      {
        key: '5k',
        name: '5K Fun Run',
        rupees: 600,
        total: 2000,
        description: 'An untimed 5 km loop for walkers, joggers and first-timers.',
        benefits: ['Finisher medal'],
      },
      {
        key: 'family',
        name: 'Family Pass (4 people)',
        rupees: 1800,
        total: 300,
        persons: 4,
        description: 'Four entries to the 5K Fun Run on one ticket, for families running together.',
        benefits: ['Four bibs', 'Four finisher medals', 'Family photo at the finish'],
      },
    ],
  },
  {
    id: 'laugh-out-loud-gurugram',
    name: 'Laugh Out Loud: Gurugram Edition',
    category: 'comedy',
    city: 'Delhi/NCR',
    venue: 'Epicentre, Apparel House, Sector 44, Gurugram',
    venueState: 'Haryana',
    description:
      'Two of the circuit’s sharpest voices test brand-new material about corporate life, Gurugram traffic and family WhatsApp groups. Expect strong language.',
    inDays: 5,
    slotTimes: ['19:00', '21:30'],
    durationMinutes: 90,
    ageLimit: 18,
    artists: ['Kabir Malhotra', 'Ananya Sethi'],
    tiers: [
      {
        key: 'regular',
        name: 'Regular',
        rupees: 499,
        total: 180,
        description: 'Free seating on a first-come basis.',
      },
      {
        key: 'front-row',
        name: 'Front Row',
        rupees: 899,
        total: 24,
        description: 'Reserved seats in the first two rows. Yes, you may get roasted.',
        benefits: ['Reserved seat', 'Meet the comics after the show'],
      },
    ],
  },
  {
    id: 'pottery-workshop-delhi',
    name: 'Wheel Throwing Pottery Workshop',
    category: 'workshops',
    city: 'Delhi/NCR',
    venue: 'Studio Terracotta, Hauz Khas Village, New Delhi',
    venueState: 'Delhi',
    description:
      'Learn to centre clay and throw your first bowls on the wheel. All materials are provided and your best two pieces are glazed, fired and ready to collect two weeks later.',
    inDays: 12,
    moreDays: [7],
    slotTimes: ['11:00', '15:00'],
    durationMinutes: 150,
    ageLimit: 10,
    artists: ['Ira Bhatnagar'],
    tiers: [
      {
        key: 'participant',
        name: 'Participant',
        rupees: 1800,
        total: 12,
        description: 'One wheel, clay, tools and firing of two pieces.',
        benefits: ['All materials', 'Two fired pieces'],
        refundable: true,
      },
      {
        key: 'pair',
        name: 'Pair',
        rupees: 3200,
        total: 6,
        persons: 2,
        description: 'Two people sharing one session, each on their own wheel.',
        benefits: ['Two wheels', 'Four fired pieces'],
        refundable: true,
      },
    ],
  },
  {
    id: 'retro-bollywood-mumbai',
    name: 'Retro Bollywood Live',
    category: 'concerts',
    city: 'Mumbai',
    venue: 'NSCI Dome, Worli, Mumbai',
    description:
      'A twelve-piece band and two singers revisit the golden songs of the 60s, 70s and 80s with the original orchestrations. Sing along, dance in the aisles.',
    inDays: 4,
    slotTimes: ['20:00'],
    durationMinutes: 165,
    ageLimit: 5,
    artists: ['The Vinyl Project', 'Meera Kulkarni', 'Sameer Desai'],
    tiers: [
      {
        key: 'silver',
        name: 'Silver',
        rupees: 799,
        total: 900,
        description: 'Upper-tier seating.',
        benefits: ['Reserved seat'],
      },
      {
        key: 'gold',
        name: 'Gold',
        rupees: 1499,
        total: 500,
        description: 'Lower-tier seating with the best sound.',
        benefits: ['Reserved seat', 'Express entry'],
      },
      {
        key: 'platinum-lounge',
        name: 'Platinum Lounge',
        rupees: 4999,
        total: 60,
        description: 'Sofa seating in the lounge with dinner and a meet-and-greet.',
        benefits: ['Dinner buffet', 'Meet-and-greet', 'Valet parking'],
        saleOpensInDays: 2,
      },
    ],
  },
  {
    id: 'mumbai-t20-final',
    name: 'Mumbai Premier T20 Final',
    category: 'sports',
    city: 'Mumbai',
    venue: 'Brabourne Stadium, Churchgate, Mumbai',
    description:
      'The city league’s two best clubs meet under lights in the final at the historic Brabourne Stadium. Gates open two hours before the first ball.',
    inDays: 15,
    slotTimes: ['19:30'],
    durationMinutes: 210,
    ageLimit: null,
    artists: [],
    tiers: [
      {
        key: 'north-stand',
        name: 'North Stand',
        rupees: 600,
        total: 5000,
        description: 'General stand seating behind the bowler’s arm.',
      },
      {
        key: 'pavilion',
        name: 'Pavilion',
        rupees: 2500,
        total: 400,
        description: 'Covered pavilion seating with food and beverage service.',
        benefits: ['Covered seating', 'Food counter access'],
      },
    ],
  },
  {
    id: 'sunday-sarcasm-mumbai',
    name: 'Sunday Sarcasm Open Mic',
    category: 'comedy',
    city: 'Mumbai',
    venue: 'The Habitat, Khar West, Mumbai',
    description:
      'Eight new comics, ten minutes each, one very patient host. The place where tomorrow’s specials are tried out today.',
    inDays: 2,
    moreDays: [7, 14],
    slotTimes: ['17:00'],
    durationMinutes: 120,
    ageLimit: 16,
    artists: ['Rohan D’Souza'],
    tiers: [
      {
        key: 'entry',
        name: 'Entry',
        rupees: 299,
        total: 120,
        description: 'Free seating. Food and drinks are ordered at the table.',
      },
    ],
  },
  {
    id: 'tughlaq-prithvi',
    name: 'Tughlaq: A Play in Two Acts',
    category: 'shows',
    city: 'Mumbai',
    venue: 'Prithvi Theatre, Juhu, Mumbai',
    description:
      'A new Hindi staging of Girish Karnad’s classic about the visionary and tragic sultan Muhammad bin Tughlaq. Performed with one interval.',
    inDays: 6,
    moreDays: [1, 2],
    slotTimes: ['18:00', '21:00'],
    durationMinutes: 140,
    ageLimit: 12,
    artists: ['Rangmanch Repertory'],
    tiers: [
      {
        key: 'stalls',
        name: 'Stalls',
        rupees: 750,
        total: 150,
        description: 'Numbered seats around the thrust stage.',
        benefits: ['Numbered seat'],
      },
      {
        key: 'student',
        name: 'Student',
        rupees: 400,
        total: 40,
        description: 'Back-row seats for students; carry a valid student ID.',
        benefits: ['Valid with student ID only'],
      },
    ],
  },
  {
    id: 'bengaluru-indie-rock-fest',
    name: 'Bengaluru Indie Rock Fest',
    category: 'concerts',
    city: 'Bengaluru',
    venue: 'Phoenix Marketcity Amphitheatre, Whitefield, Bengaluru',
    description:
      'Two days, two stages and ten of the best independent bands from Bengaluru, Shillong and Mumbai. Craft food trucks and a merch market run all day.',
    inDays: 7,
    moreDays: [1],
    slotTimes: ['15:00'],
    durationMinutes: 420,
    ageLimit: 16,
    artists: ['Filter Coffee Band', 'The Silk Board Jam', 'Echo Lake'],
    tiers: [
      {
        key: 'day-pass',
        name: 'Day Pass',
        rupees: 1299,
        total: 1200,
        description: 'Entry for one festival day to both stages.',
        benefits: ['Both stages', 'Re-entry until 8 PM'],
      },
      {
        key: 'vip',
        name: 'VIP',
        rupees: 4499,
        total: 150,
        description: 'Raised viewing deck, private bar and clean restrooms.',
        benefits: ['Viewing deck', 'Private bar', 'Festival tote bag'],
        refundable: true,
      },
    ],
  },
  {
    id: 'design-thinking-bengaluru',
    name: 'Design Thinking Bootcamp',
    category: 'workshops',
    city: 'Bengaluru',
    venue: 'NUMA Bengaluru, Koramangala, Bengaluru',
    description:
      'A hands-on day of user interviews, journey maps and rapid prototyping with paper and Figma. Bring a laptop; lunch and a certificate are included.',
    inDays: 10,
    slotTimes: ['10:00'],
    durationMinutes: 420,
    ageLimit: 18,
    artists: [],
    tiers: [
      {
        key: 'early-bird',
        name: 'Early Bird',
        rupees: 2499,
        total: 20,
        description: 'The first twenty seats at a lower price.',
        benefits: ['Lunch', 'Certificate'],
        soldOut: true,
      },
      {
        key: 'regular',
        name: 'Regular',
        rupees: 3499,
        total: 40,
        description: 'A full-day seat with all materials.',
        benefits: ['Lunch', 'Certificate', 'Templates pack'],
        refundable: true,
      },
    ],
  },
  {
    id: 'namma-comedy-night',
    name: 'Namma Comedy Night',
    category: 'comedy',
    city: 'Bengaluru',
    venue: 'Jagriti Theatre, Whitefield, Bengaluru',
    description:
      'Kannada and English stand-up about filter coffee, Bengaluru weather and the eternal question of auto fares.',
    inDays: 8,
    slotTimes: ['20:00'],
    durationMinutes: 100,
    ageLimit: 16,
    artists: ['Pradeep Gowda', 'Shruti Rao'],
    tiers: [
      {
        key: 'standard',
        name: 'Standard',
        rupees: 599,
        total: 200,
        description: 'Numbered seat in the auditorium.',
      },
    ],
  },
  {
    id: 'qawwali-hyderabad',
    name: 'Deccan Qawwali Mehfil',
    category: 'concerts',
    city: 'Hyderabad',
    venue: 'Shilpakala Vedika, HITEC City, Hyderabad',
    description:
      'A mehfil in the old Hyderabadi tradition: harmoniums, tablas and hand-claps building to the ecstatic finale. Dinner counters serve haleem and kebabs.',
    inDays: 11,
    slotTimes: ['19:30'],
    durationMinutes: 180,
    ageLimit: null,
    artists: ['Warsi Brothers of Deccan'],
    tiers: [
      {
        key: 'general',
        name: 'General',
        rupees: 699,
        total: 800,
        description: 'Balcony seating.',
      },
      {
        key: 'premium',
        name: 'Premium',
        rupees: 1499,
        total: 250,
        description: 'Ground-floor seating close to the stage.',
        benefits: ['Ground-floor seat', 'Dinner coupon'],
      },
    ],
  },
  {
    id: 'deccan-badminton-open',
    name: 'Deccan Badminton Open',
    category: 'sports',
    city: 'Hyderabad',
    venue: 'Gachibowli Indoor Stadium, Hyderabad',
    description:
      'Quarter-finals to finals of the national ranking tournament, with India’s top singles and doubles players.',
    inDays: 14,
    moreDays: [1, 2],
    slotTimes: ['10:00', '16:00'],
    durationMinutes: 300,
    ageLimit: null,
    artists: [],
    tiers: [
      {
        key: 'session',
        name: 'Session Pass',
        rupees: 300,
        total: 2500,
        description: 'Entry to one session (morning or evening).',
      },
      {
        key: 'courtside',
        name: 'Courtside',
        rupees: 1200,
        total: 100,
        description: 'Front-row seats along the main court.',
        benefits: ['Front-row seat', 'Signed shuttle'],
      },
    ],
  },
  {
    id: 'grand-illusion-hyderabad',
    name: 'The Grand Illusion Magic Show',
    category: 'shows',
    city: 'Hyderabad',
    venue: 'Ravindra Bharathi, Saifabad, Hyderabad',
    description:
      'Levitation, mind reading and a disappearing motorbike: a family magic show with a dozen illusions and a lot of audience participation.',
    inDays: 3,
    moreDays: [1],
    slotTimes: ['11:00', '17:00'],
    durationMinutes: 110,
    ageLimit: 3,
    artists: ['Vikram the Magician'],
    tiers: [
      {
        key: 'balcony',
        name: 'Balcony',
        rupees: 350,
        total: 300,
        description: 'Upper-floor seats.',
      },
      {
        key: 'stalls',
        name: 'Stalls',
        rupees: 650,
        total: 500,
        description: 'Ground-floor seats; front rows may be invited on stage.',
        benefits: ['Chance to join an illusion on stage'],
      },
    ],
  },
  {
    id: 'margazhi-carnatic-chennai',
    name: 'Margazhi Carnatic Evenings',
    category: 'concerts',
    city: 'Chennai',
    venue: 'The Music Academy, TTK Road, Chennai',
    description:
      'Three evenings of Carnatic vocal and violin concerts during the December season, each followed by a short conversation with the artists.',
    inDays: 16,
    moreDays: [1, 2],
    slotTimes: ['18:30'],
    durationMinutes: 150,
    ageLimit: null,
    artists: ['Lakshmi Srinivasan', 'K. Raghavan (violin)'],
    tiers: [
      {
        key: 'rasika',
        name: 'Rasika',
        rupees: 500,
        total: 600,
        description: 'Balcony seats.',
      },
      {
        key: 'donor',
        name: 'Donor Circle',
        rupees: 2000,
        total: 100,
        description: 'Front stalls; part of the price supports young musicians.',
        benefits: ['Front stalls', 'Season brochure', 'Filter coffee at the interval'],
      },
    ],
  },
  {
    id: 'chennai-street-food-carnival',
    name: 'Chennai Street Food Carnival',
    category: 'others',
    city: 'Chennai',
    venue: 'Island Grounds, Anna Salai, Chennai',
    description:
      'Sixty stalls from across Tamil Nadu and beyond: Madurai jigarthanda, Kumbakonam degree coffee, Chettinad curries and Burmese atho. Live music every evening.',
    inDays: 18,
    moreDays: [1],
    slotTimes: ['16:00'],
    durationMinutes: 360,
    ageLimit: null,
    artists: [],
    tiers: [
      {
        key: 'entry',
        name: 'Entry',
        rupees: 199,
        total: 5000,
        description: 'Entry to the grounds for one evening; food and drinks are paid for at the stalls.',
        benefits: ['Live music'],
      },
    ],
  },
  {
    id: 'chennai-rapid-chess',
    name: 'Chennai Rapid Chess Open',
    category: 'sports',
    city: 'Chennai',
    venue: 'Jawaharlal Nehru Indoor Stadium, Periamet, Chennai',
    description:
      'A FIDE-rated rapid tournament open to all. Players register through the player ticket; spectators can watch the top boards on the big screen.',
    inDays: 20,
    slotTimes: ['09:00'],
    durationMinutes: 540,
    ageLimit: null,
    artists: [],
    tiers: [
      {
        key: 'player',
        name: 'Player Registration',
        rupees: 1000,
        total: 300,
        description: 'Entry to all nine rounds. Bring your FIDE ID.',
        benefits: ['Nine rated rounds', 'Lunch'],
      },
      {
        key: 'spectator',
        name: 'Spectator',
        rupees: 100,
        total: 500,
        description: 'Spectator gallery for the whole day.',
      },
    ],
  },
  {
    id: 'rabindra-sangeet-kolkata',
    name: 'Rabindra Sangeet Sandhya',
    category: 'concerts',
    city: 'Kolkata',
    venue: 'Rabindra Sadan, Cathedral Road, Kolkata',
    description:
      'An evening of Tagore’s songs, from the monsoon to the spring cycles, sung by a choir of forty with esraj and tanpura.',
    inDays: 6,
    slotTimes: ['18:00'],
    durationMinutes: 120,
    ageLimit: null,
    artists: ['Dakshinee Choir', 'Rupa Sengupta'],
    tiers: [
      {
        key: 'balcony',
        name: 'Balcony',
        rupees: 300,
        total: 400,
        description: 'Upper balcony seats.',
      },
      {
        key: 'orchestra',
        name: 'Orchestra Stalls',
        rupees: 800,
        total: 300,
        description: 'Lower stalls close to the stage.',
      },
    ],
  },
  {
    id: 'kolkata-football-derby',
    name: 'Kolkata Football Derby',
    category: 'sports',
    city: 'Kolkata',
    venue: 'Vivekananda Yuba Bharati Krirangan, Salt Lake, Kolkata',
    description:
      'The oldest rivalry in Indian football in front of a roaring Salt Lake crowd. Separate gates for home and away supporters.',
    inDays: 13,
    slotTimes: ['19:00'],
    durationMinutes: 120,
    ageLimit: null,
    artists: [],
    tiers: [
      {
        key: 'gallery',
        name: 'Gallery',
        rupees: 150,
        total: 20000,
        description: 'Open gallery seating.',
      },
      {
        key: 'vip-stand',
        name: 'VIP Stand',
        rupees: 1500,
        total: 600,
        description: 'Covered west stand with padded seats.',
        benefits: ['Covered seat', 'Match-day programme'],
      },
    ],
  },
  {
    id: 'great-bengal-quiz',
    name: 'Great Bengal Quiz Night',
    category: 'others',
    city: 'Kolkata',
    venue: 'Oxford Bookstore, Park Street, Kolkata',
    description:
      'Teams of up to four battle through eight rounds on Kolkata history, cinema, football and food. Prizes for the top three teams and the best team name.',
    inDays: 9,
    slotTimes: ['18:30'],
    durationMinutes: 150,
    ageLimit: 14,
    artists: ['Quizmaster Arindam Bose'],
    tiers: [
      {
        key: 'team',
        name: 'Team of Four',
        rupees: 1200,
        total: 30,
        persons: 4,
        description: 'One table for up to four players.',
        benefits: ['Reserved table', 'Tea and snacks'],
      },
    ],
  },
  {
    id: 'pune-jazz-weekend',
    name: 'Pune Jazz Weekend',
    category: 'concerts',
    city: 'Pune',
    venue: 'Mahalaxmi Lawns, Karve Nagar, Pune',
    description:
      'Big band swing, Latin jazz and an Indo-jazz fusion set on an open lawn. Picnic blankets welcome; the food court stays open until the last encore.',
    inDays: 17,
    moreDays: [1],
    slotTimes: ['17:30'],
    durationMinutes: 270,
    ageLimit: null,
    artists: ['Deccan Big Band', 'Anaya Joshi Quartet'],
    tiers: [
      {
        key: 'lawn',
        name: 'Lawn',
        rupees: 999,
        total: 1500,
        description: 'Open lawn; bring a blanket.',
      },
      {
        key: 'table',
        name: 'Table for Four',
        rupees: 5999,
        total: 40,
        persons: 4,
        description: 'A reserved table for four near the stage with a platter.',
        benefits: ['Reserved table', 'Snack platter', 'Dedicated service'],
      },
    ],
  },
  {
    id: 'street-photography-pune',
    name: 'Street Photography Walk and Workshop',
    category: 'workshops',
    city: 'Pune',
    venue: 'Shaniwar Wada, Shaniwar Peth, Pune',
    description:
      'A dawn walk through the old city’s peths with a working photojournalist, then a two-hour review of your frames over breakfast. Any camera, including a phone, is fine.',
    inDays: 5,
    moreDays: [7],
    slotTimes: ['06:30'],
    durationMinutes: 240,
    ageLimit: 14,
    artists: ['Nikhil Apte'],
    tiers: [
      {
        key: 'walker',
        name: 'Walker',
        rupees: 1500,
        total: 15,
        description: 'The walk, the review session and breakfast.',
        benefits: ['Breakfast', 'Portfolio review'],
        refundable: true,
      },
    ],
  },
  {
    id: 'garba-night-ahmedabad',
    name: 'Sharad Purnima Garba Night',
    category: 'others',
    city: 'Ahmedabad',
    venue: 'GMDC Ground, Vastrapur, Ahmedabad',
    description:
      'Garba and dandiya under the full moon with a live folk orchestra. Traditional dress encouraged; dandiya sticks available at the gate.',
    inDays: 4,
    slotTimes: ['20:00'],
    durationMinutes: 240,
    ageLimit: null,
    artists: ['Kinjal Dave Folk Orchestra'],
    tiers: [
      {
        key: 'entry',
        name: 'Entry Pass',
        rupees: 350,
        total: 5000,
        description: 'Entry to the ground.',
      },
      {
        key: 'couple',
        name: 'Couple Pass',
        rupees: 600,
        total: 1000,
        persons: 2,
        description: 'Entry for two.',
      },
    ],
  },
  {
    id: 'young-scientists-ahmedabad',
    name: 'Young Scientists Weekend Lab',
    category: 'workshops',
    city: 'Ahmedabad',
    venue: 'Gujarat Science City, Sola, Ahmedabad',
    description:
      'Children aged 8 to 14 build a working circuit, launch a water rocket and look at the Moon through a telescope. Parents may wait in the café.',
    inDays: 19,
    slotTimes: ['10:00', '14:00'],
    durationMinutes: 180,
    ageLimit: 8,
    artists: [],
    tiers: [
      {
        key: 'child',
        name: 'Child Seat',
        rupees: 899,
        total: 40,
        description: 'One child, all materials and a take-home kit.',
        benefits: ['Take-home kit', 'Certificate'],
        refundable: true,
      },
    ],
  },
  {
    id: 'punjabi-folk-chandigarh',
    name: 'Punjabi Folk Fusion Night',
    category: 'concerts',
    city: 'Chandigarh',
    venue: 'Tagore Theatre, Sector 18, Chandigarh',
    venueState: 'Chandigarh',
    description:
      'Tumbi, algoze and dhol meet electric guitar and synths in an evening of reimagined Punjabi folk songs.',
    inDays: 8,
    slotTimes: ['19:00'],
    durationMinutes: 150,
    ageLimit: null,
    artists: ['Jugni Collective', 'Harleen Kaur'],
    tiers: [
      {
        key: 'balcony',
        name: 'Balcony',
        rupees: 500,
        total: 300,
        description: 'Balcony seats.',
      },
      {
        key: 'stalls',
        name: 'Stalls',
        rupees: 1100,
        total: 400,
        description: 'Stalls seats.',
        benefits: ['Reserved seat'],
      },
    ],
  },
  {
    id: 'tricity-comedy-roast',
    name: 'Tricity Comedy Roast',
    category: 'comedy',
    city: 'Chandigarh',
    venue: 'Punjab Kala Bhawan, Sector 16, Chandigarh',
    venueState: 'Chandigarh',
    description: 'Four comics roast each other, the city’s roundabouts and anyone sitting in the front row.',
    inDays: 21,
    slotTimes: ['20:00'],
    durationMinutes: 105,
    ageLimit: 18,
    artists: ['Gurpreet Sandhu', 'Neha Bansal'],
    tiers: [
      {
        key: 'general',
        name: 'General',
        rupees: 449,
        total: 250,
        description: 'Free seating.',
      },
    ],
  },
  {
    id: 'jaipur-puppet-show',
    name: 'Kathputli: Rajasthani Puppet Theatre',
    category: 'shows',
    city: 'Jaipur',
    venue: 'Jawahar Kala Kendra, Jawaharlal Nehru Marg, Jaipur',
    description:
      'A traditional string-puppet performance of the legend of Amar Singh Rathore with live dholak and folk singing, followed by a puppet-making demonstration.',
    inDays: 10,
    moreDays: [1],
    slotTimes: ['17:00'],
    durationMinutes: 75,
    ageLimit: null,
    artists: ['Bhatt Puppeteers of Jaipur'],
    tiers: [
      {
        key: 'seat',
        name: 'Seat',
        rupees: 250,
        total: 200,
        description: 'Open-air amphitheatre seating.',
      },
    ],
  },
  {
    id: 'goa-sunset-sessions',
    name: 'Sunset Sessions by the Sea',
    category: 'concerts',
    city: 'Goa',
    venue: 'Vagator Beach, North Goa',
    description:
      'Electronic and acoustic sets from four in the afternoon until the stars come out, on a cliff above the Arabian Sea.',
    inDays: 22,
    slotTimes: ['16:00'],
    durationMinutes: 360,
    ageLimit: 21,
    artists: ['Konkan Coast Collective', 'DJ Tara'],
    tiers: [
      {
        key: 'ga',
        name: 'General Admission',
        rupees: 1999,
        total: 1500,
        description: 'Access to the beach stage area.',
        benefits: ['Beach stage access'],
      },
      {
        key: 'cabana',
        name: 'Cabana for Six',
        rupees: 18000,
        total: 12,
        persons: 6,
        description: 'A private cabana for six with bottle service.',
        benefits: ['Private cabana', 'Bottle service', 'Dedicated host'],
      },
    ],
    platformFeeRate: 4,
  },
];

/** File name slug for an artist's picture. */
export function artistSlug(name: string): string {
  return name
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}
