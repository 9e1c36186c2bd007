import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MAP_LINK_HELP } from '../../shared/map-links.ts';
import { account, type Person } from '../helpers/engine-fixtures.ts';
import { createTestAppOn, type TestApp, testEngine } from '../helpers/test-app.ts';
import { callProcedure } from '../helpers/trpc-http.ts';

const DETAILS = {
  name: 'Monsoon Ragas',
  category: 'concerts',
  city: 'Pune',
  eventLocationText: 'Ganesh Kala Krida Manch, Swargate',
  description: 'An evening of Hindustani classical music.',
  ageRestrictions: null,
  language: 'Hindi',
  termsAndConditions: [],
  artists: [],
  platformFeeRate: 4,
};

// Issue 35 item 24: Google's Share button gives a maps.app.goo.gl link, which left a blank map box.
describe("an event's map link, as Google Maps gives it", () => {
  let t: TestApp;
  let organiser: Person;
  beforeEach(async () => {
    t = await createTestAppOn(testEngine());
    organiser = await account(t, 'organiser');
  });
  afterEach(async () => {
    await t.close();
  });

  const createEvent = (googleMapsEmbedLink: string) =>
    callProcedure(
      t,
      'mutation',
      'organiser.createEvent',
      { ...DETAILS, googleMapsEmbedLink },
      { cookie: organiser.cookie },
    );
  const storedLink = async (eventId: string) =>
    (
      (await callProcedure(t, 'query', 'organiser.editableEvent', { eventId }, { cookie: organiser.cookie }))
        .data as {
        googleMapsEmbedLink: string;
      }
    ).googleMapsEmbedLink;

  it('keeps a Share link and the address out of a pasted Embed a map HTML', async () => {
    const shared = await createEvent('https://maps.app.goo.gl/Xb1cD2eF3gH4');
    expect(shared.status).toBe(200);
    expect(await storedLink((shared.data as { eventId: string }).eventId)).toBe(
      'https://maps.app.goo.gl/Xb1cD2eF3gH4',
    );

    const embed = 'https://www.google.com/maps/embed?pb=!1m18!1m12';
    const html = await createEvent(
      `<iframe src="${embed}" width="600" height="450" loading="lazy"></iframe>`,
    );
    expect(html.status).toBe(200);
    expect(await storedLink((html.data as { eventId: string }).eventId)).toBe(embed);
  });

  it('refuses any other address with how to get a Google Maps link', async () => {
    const res = await createEvent('https://maps.example.com/venue');
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.body)).toContain(MAP_LINK_HELP);
  });
});
