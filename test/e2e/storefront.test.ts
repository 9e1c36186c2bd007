import { describe, expect, it } from 'vitest';
import { DESKTOP, expectNoSeriousA11yViolations, newContext, type Page, PHONE } from '../helpers/browser.ts';
import { e2eServer } from '../helpers/e2e-server.ts';
import { useE2eBrowser } from '../helpers/e2e-world.ts';

describe('storefront in Chromium', () => {
  const world = useE2eBrowser();
  const baseURL = e2eServer().baseURL;

  async function open(
    viewport: { width: number; height: number } = DESKTOP,
    options: { geolocation?: { latitude: number; longitude: number } } = {},
  ) {
    const { context, cspViolations } = await newContext(world.browser, baseURL, viewport);
    if (options.geolocation) {
      await context.grantPermissions(['geolocation']);
      await context.setGeolocation(options.geolocation);
    }
    const page = await context.newPage();
    return { context, page, cspViolations };
  }

  const cityButton = (page: Page) => page.getByRole('button', { name: /^City:/ }).locator('visible=true');

  it('home → choose a city → open an event → share dialog', async () => {
    const { context, page, cspViolations } = await open();
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await page.goto('/');
    await page.getByRole('heading', { name: 'Happening near me' }).waitFor();
    await expect(cityButton(page).textContent()).resolves.toContain('Select');

    await cityButton(page).click();
    const picker = page.getByRole('dialog', { name: 'Select Your City' });
    await picker.waitFor();
    await picker.getByRole('button', { name: 'Mumbai', exact: true }).click();
    await picker.waitFor({ state: 'detached' });
    await expect(cityButton(page).textContent()).resolves.toContain('MUM');
    expect(await page.evaluate(() => localStorage.getItem('selectedCity'))).toBe('Mumbai');

    const near = page.locator('section', { has: page.getByRole('heading', { name: 'Happening near me' }) });
    // The demo's four Mumbai events, plus any another test file added to this shared server first.
    const count = near.getByText(/^\d+ events in Mumbai/);
    await count.waitFor();
    expect(Number.parseInt((await count.textContent()) ?? '', 10)).toBeGreaterThanOrEqual(4);
    await near.getByRole('link', { name: /Retro Bollywood Live/ }).click();
    await page.waitForURL('**/events/retro-bollywood-mumbai');
    await page.getByRole('heading', { level: 1, name: 'Retro Bollywood Live' }).waitFor();
    await expect(page.getByText('₹799 Onwards').locator('visible=true').count()).resolves.toBe(1);
    await page.getByText('2 hours 45 minutes').waitFor();
    await page.getByText('5 yrs +').waitFor();
    const bookNow = page.getByRole('link', { name: 'Book Now' }).locator('visible=true');
    await expect(bookNow.getAttribute('href')).resolves.toBe('/select-tickets/retro-bollywood-mumbai');

    await page.getByRole('button', { name: 'Share' }).click();
    const share = page.getByRole('dialog', { name: 'Share this event' });
    await share.waitFor();
    const link = `${baseURL}/event/retro-bollywood-mumbai`;
    await expect(share.getByLabel('Event link').inputValue()).resolves.toBe(link);
    const whatsapp = await share.getByRole('link', { name: 'Share on WhatsApp' }).getAttribute('href');
    expect(decodeURIComponent(whatsapp!.replace('https://wa.me/?text=', ''))).toBe(
      `Hey! Check out this event "Retro Bollywood Live" ${link}`,
    );
    await share.getByRole('button', { name: 'Copy Link' }).click();
    await share.getByRole('status').filter({ hasText: 'Link copied!' }).waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(link);
    await expectNoSeriousA11yViolations(page);
    expect(cspViolations).toEqual([]);
    await context.close();
  });

  it('a shared /event/{id} link previews the event and opens its page', async () => {
    const html = await (await fetch(`${baseURL}/event/sufi-nights-delhi`)).text();
    expect(html).toContain('<meta property="og:title" content="Sufi Nights under the Stars | Jalsa">');
    expect(html).toContain(`${baseURL}/images/events/sufi-nights-delhi-wide.webp`);
    const { context, page } = await open(PHONE);
    await page.goto('/event/sufi-nights-delhi');
    await page.waitForURL('**/events/sufi-nights-delhi');
    await page.getByRole('heading', { level: 1, name: 'Sufi Nights under the Stars' }).waitFor();
    // Two evenings, 7-10 PM each: the page names both shows (issue 35 item 23) and gives one show's
    // length, not the run's.
    const fact = (label: string) =>
      page.locator('dt', { hasText: label }).first().locator('xpath=following-sibling::dd[1]');
    await expect(fact('Dates').textContent()).resolves.toMatch(/· 2 shows$/);
    const shows = page.getByRole('list', { name: 'Shows' }).getByRole('listitem');
    await expect(shows.allTextContents()).resolves.toEqual([
      expect.stringMatching(/· 7:00 PM$/),
      expect.stringMatching(/· 7:00 PM$/),
    ]);
    await expect(fact('Duration').textContent()).resolves.toBe('3 hours');
    await context.close();
  });

  it('searches from the top bar by venue and artist, with an empty state', async () => {
    const { context, page } = await open();
    await page.goto('/');
    const box = page.getByRole('searchbox', { name: 'Search events' }).locator('visible=true');
    await expect(box.getAttribute('placeholder')).resolves.toBe('Search for Events, Workshop');
    await box.fill('prithvi');
    await box.press('Enter');
    await page.waitForURL('**/search?q=prithvi');
    await page.getByRole('heading', { name: 'Results for "prithvi"' }).waitFor();
    // The heading renders before the results arrive: wait for the result, then check it is the only one.
    await page.getByRole('link', { name: /Tughlaq/ }).waitFor();
    await expect(page.getByRole('link', { name: /Tughlaq/ }).count()).resolves.toBe(1);

    await page.goto('/search?q=Zoya%20Qureshi');
    await page.getByRole('link', { name: /Sufi Nights/ }).waitFor();

    await page.goto('/search?q=qqzzxx');
    await page.getByText('No events found for "qqzzxx"').waitFor();
    await expectNoSeriousA11yViolations(page);
    await context.close();
  });

  it('browses events by category and date', async () => {
    const { context, page } = await open();
    await page.goto('/explore');
    const count = page.getByRole('status').filter({ hasText: /events?$/ });
    await count.waitFor();
    const all = Number.parseInt((await count.textContent())!, 10);
    await page.getByRole('button', { name: 'Comedy' }).click();
    await page.waitForURL('**/explore?category=comedy');
    await expect.poll(async () => Number.parseInt((await count.textContent()) ?? '0', 10)).toBeLessThan(all);
    await page.getByRole('link', { name: /Laugh Out Loud/ }).waitFor();
    await expect(page.getByRole('link', { name: /Sufi Nights/ }).count()).resolves.toBe(0);
    await page.getByRole('button', { name: 'Today', exact: true }).click();
    await page.getByText('No events match these filters').waitFor();
    await context.close();
  });

  it('shows the not-found page for unknown paths and events', async () => {
    const { context, page } = await open(PHONE);
    await page.goto('/no/such/page');
    await page.getByRole('heading', { name: 'Page not found' }).waitFor();
    await expectNoSeriousA11yViolations(page);
    await page.goto('/events/no-such-event');
    await page.getByRole('heading', { name: "We couldn't find this event" }).waitFor();
    await page.getByRole('link', { name: 'Browse events' }).waitFor();
    await context.close();
  });

  it('detects the city from the browser position and says so', async () => {
    const { context, page } = await open(PHONE, { geolocation: { latitude: 18.5204, longitude: 73.8567 } });
    await page.goto('/');
    await cityButton(page).click();
    await page.getByRole('button', { name: 'Detect my location' }).click();
    await page.getByText('Detected: 18.52° N, 73.86° E. Selecting Pune...').waitFor();
    await page.getByRole('dialog').waitFor({ state: 'detached' });
    await expect(cityButton(page).textContent()).resolves.toContain('PUN');
    await context.close();

    const denied = await open(PHONE);
    await denied.page.goto('/');
    await cityButton(denied.page).click();
    await denied.page.getByRole('button', { name: 'Detect my location' }).click();
    await denied.page
      .getByText('Location access denied. Please enable location permissions and try again.')
      .waitFor();
    await denied.context.close();
  });

  it('city search handles aliases, subsequences, no match and typed names', async () => {
    const { context, page } = await open(PHONE);
    await page.goto('/');
    await cityButton(page).click();
    const dialog = page.getByRole('dialog', { name: 'Select Your City' });
    const input = dialog.getByRole('searchbox', { name: 'Search for your city...' });
    await input.fill('gurgaon');
    await dialog.getByRole('button', { name: 'Delhi/NCR' }).waitFor();
    await expect(dialog.getByRole('heading', { name: 'More Cities' }).count()).resolves.toBe(0);
    await input.fill('qqzzxx');
    await dialog.getByText('No cities found matching "qqzzxx"').waitFor();
    await dialog.getByText('Try a different search term or use location detection').waitFor();
    await expectNoSeriousA11yViolations(page);
    await input.fill('Atlantis');
    await input.press('Enter');
    await dialog.waitFor({ state: 'detached' });
    expect(await page.evaluate(() => localStorage.getItem('selectedCity'))).toBe('Atlantis');
    await page.getByText('Nothing is on in Atlantis just yet.').waitFor();
    await context.close();
  });

  it('scroll arrows show only on desktop and only when there is more to scroll', async () => {
    const { context, page } = await open(DESKTOP);
    await page.goto('/');
    const row = page.locator('section', { has: page.getByRole('heading', { name: 'You may also like' }) });
    await row.getByRole('button', { name: 'Scroll right' }).waitFor();
    await expect(row.getByRole('button', { name: 'Scroll left' }).count()).resolves.toBe(0);
    await row.getByRole('button', { name: 'Scroll right' }).click();
    await row.getByRole('button', { name: 'Scroll left' }).waitFor();
    await expect.poll(() => row.locator('ul').evaluate((ul) => ul.scrollLeft)).toBe(250);
    await context.close();

    const phone = await open(PHONE);
    await phone.page.goto('/');
    await phone.page.getByRole('heading', { name: 'You may also like' }).waitFor();
    await expect(phone.page.getByRole('button', { name: /Scroll (left|right)/ }).count()).resolves.toBe(0);
    await phone.context.close();
  });

  it('Contact Us validates the form and sends a message', async () => {
    const { context, page } = await open(PHONE);
    await page.goto('/Contact_Us');
    await page.getByRole('button', { name: 'Submit' }).click();
    await page.getByText('First name is required').waitFor();
    await page.getByText('Message is required').waitFor();
    await expectNoSeriousA11yViolations(page);
    await page.getByLabel('First Name').fill('Asha');
    await page.getByLabel('Email').fill('asha@example.com');
    await page.getByLabel('Mobile number').fill('98765');
    await page.getByLabel('Message').fill('Is there parking at the venue?');
    await page.getByRole('button', { name: 'Submit' }).click();
    await page.getByText('Please enter a valid 10-digit mobile number').waitFor();
    await page.getByLabel('Mobile number').fill('9876543210');
    await page.getByRole('button', { name: 'Submit' }).click();
    await page.getByText('Thank you! Your message has been sent.').waitFor();
    await context.close();
  });

  it('opens the mobile menu and the app-download modal from the footer badges', async () => {
    const { context, page } = await open(PHONE);
    await page.goto('/');
    await page.getByRole('button', { name: 'Open menu' }).click();
    await page.getByRole('navigation', { name: 'Mobile' }).getByRole('link', { name: 'Event' }).waitFor();
    await expectNoSeriousA11yViolations(page);
    // 'Event' opens the organiser console, which first asks a signed-out visitor to sign in.
    await page.getByRole('navigation', { name: 'Mobile' }).getByRole('link', { name: 'Event' }).click();
    await page.waitForURL(
      (url) => url.pathname === '/login' && url.searchParams.get('redirect') === '/organiser',
    );
    await page.getByRole('button', { name: 'Get it on Google Play' }).click();
    await page.getByRole('dialog', { name: 'Download our app' }).waitFor();
    await expectNoSeriousA11yViolations(page);
    await context.close();
  });

  for (const [label, viewport] of [
    ['phone', PHONE],
    ['desktop', DESKTOP],
  ] as const) {
    it(`has no serious accessibility violations on the storefront pages (${label})`, async () => {
      const { context, page, cspViolations } = await open(viewport);
      const pages: [string, string][] = [
        ['/', 'Happening near me'],
        ['/events/pottery-workshop-delhi', 'Wheel Throwing Pottery Workshop'],
        ['/events/chennai-street-food-carnival', 'Chennai Street Food Carnival'],
        ['/search?q=kolkata', 'Results for "kolkata"'],
        ['/explore', 'Explore events'],
        ['/privacy-policy', 'Privacy Policy'],
        ['/Terms%20&%20Conditions', 'Terms and Conditions'],
        ['/Contact_Us', 'Contact Us'],
      ];
      for (const [path, heading] of pages) {
        await page.goto(path);
        await page.getByRole('heading', { name: heading }).first().waitFor();
        await expectNoSeriousA11yViolations(page);
      }
      await page.goto('/');
      await cityButton(page).click();
      await page.getByRole('dialog', { name: 'Select Your City' }).waitFor();
      await expectNoSeriousA11yViolations(page);
      expect(cspViolations).toEqual([]);
      await context.close();
    });
  }

  it('policy pages have the sections the spec lists', async () => {
    const { context, page } = await open();
    await page.goto('/privacy-policy');
    await page.getByRole('heading', { level: 1, name: 'Privacy Policy' }).waitFor();
    await expect(page.locator('main').getByRole('heading', { level: 2 }).count()).resolves.toBe(11);
    await page.goto('/Terms%20&%20Conditions');
    await page.getByRole('heading', { level: 1, name: 'Terms and Conditions' }).waitFor();
    await expect(page.locator('main').getByRole('heading', { level: 2 }).count()).resolves.toBe(14);
    await page.getByText('You must be at least 18 years old').waitFor();
    await context.close();
  });
});
