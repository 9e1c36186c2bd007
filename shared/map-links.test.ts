import { describe, expect, it } from 'vitest';
import { mapsEmbedSearchUrl, mapsSearchUrl, parseMapLink, venueMap } from './map-links.ts';

const EMBED = 'https://www.google.com/maps/embed?pb=!1m18!1m12!1m3!1d3771.2!2d72.8!3d19.0';

describe('a map link an organiser pastes', () => {
  it("takes Google's Share → Copy link (the short link a blank map box came from) as the page's Open in Maps link", () => {
    expect(parseMapLink('https://maps.app.goo.gl/Xb1cD2eF3gH4')).toEqual({
      kind: 'share',
      url: 'https://maps.app.goo.gl/Xb1cD2eF3gH4',
    });
    expect(parseMapLink('https://goo.gl/maps/abc123')?.kind).toBe('share');
    expect(parseMapLink('https://www.google.com/maps/place/NSCI+Dome/@19.0,72.8,17z')?.kind).toBe('share');
  });

  it('takes the Embed a map HTML whole, keeping only its address', () => {
    const html = `<iframe src="${EMBED}&amp;hl=en" width="600" height="450" style="border:0;" allowfullscreen="" loading="lazy"></iframe>`;
    expect(parseMapLink(html)).toEqual({ kind: 'embed', url: `${EMBED}&hl=en` });
  });

  it('moves an embed link to the host the page may frame', () => {
    expect(parseMapLink('https://www.google.co.in/maps/embed?pb=!1m2')?.url).toBe(
      'https://www.google.com/maps/embed?pb=!1m2',
    );
    expect(parseMapLink('https://maps.google.com/maps?q=Dome&output=embed')).toEqual({
      kind: 'embed',
      url: 'https://maps.google.com/maps?q=Dome&output=embed',
    });
  });

  it('refuses what is not a Google Maps https link', () => {
    for (const bad of [
      'javascript:alert(1)',
      'http://maps.app.goo.gl/x',
      'https://evil.example/maps/embed?pb=1',
      'https://goo.gl/not-maps',
      'https://www.google.com/search?q=venue',
      'https://user:pw@www.google.com/maps/embed?pb=1',
      'NSCI Dome, Worli',
    ]) {
      expect(parseMapLink(bad), bad).toBeNull();
    }
  });
});

describe("the event page's map", () => {
  it('frames an embed link and searches the venue for Open in Maps', () => {
    expect(venueMap(EMBED, 'NSCI Dome')).toEqual({ frameUrl: EMBED, openUrl: mapsSearchUrl('NSCI Dome') });
  });

  it('frames a search for the venue when only a share link was given, and opens the share link', () => {
    expect(venueMap('https://maps.app.goo.gl/Xb1', 'NSCI Dome')).toEqual({
      frameUrl: mapsEmbedSearchUrl('NSCI Dome'),
      openUrl: 'https://maps.app.goo.gl/Xb1',
    });
  });

  it('shows no frame for a link saved before the rule that Google would not let it show', () => {
    expect(venueMap('https://example.com/map', 'NSCI Dome')).toEqual({
      frameUrl: null,
      openUrl: mapsSearchUrl('NSCI Dome'),
    });
    expect(venueMap(null, 'NSCI Dome').frameUrl).toBeNull();
  });
});
