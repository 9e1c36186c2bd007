import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { afterHeroPainted } from './after-hero-painted.ts';

/** A page whose `#root` holds `hero` (or no hero): all afterHeroPainted reads of the document. */
function pageWith(hero: EventTarget | null): Document {
  return { querySelector: () => hero } as unknown as Document;
}

function heroImage(complete: boolean) {
  return Object.assign(new EventTarget(), { complete });
}

// Issue 39: the app's scripts are fetched only once the server's hero has been painted, so they do not
// share a slow line with the largest paint, nor run before it.
describe('afterHeroPainted', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  const settled = (promise: Promise<void>) => {
    let done = false;
    void promise.then(() => {
      done = true;
    });
    return async () => {
      await vi.advanceTimersByTimeAsync(0);
      return done;
    };
  };

  it('waits for the hero to load, then a frame, before it resolves', async () => {
    const hero = heroImage(false);
    const isDone = settled(afterHeroPainted(pageWith(hero)));
    await vi.advanceTimersByTimeAsync(1000);
    expect(await isDone()).toBe(false);
    hero.dispatchEvent(new Event('load'));
    expect(await isDone()).toBe(false);
    await vi.advanceTimersByTimeAsync(100);
    expect(await isDone()).toBe(true);
  });

  it('waits for a loaded hero to be decoded too, so the frame after it draws the picture', async () => {
    let decoded = () => {};
    const hero = Object.assign(heroImage(true), {
      decode: () =>
        new Promise<void>((resolve) => {
          decoded = resolve;
        }),
    });
    const isDone = settled(afterHeroPainted(pageWith(hero)));
    await vi.advanceTimersByTimeAsync(500);
    expect(await isDone()).toBe(false);
    decoded();
    await vi.advanceTimersByTimeAsync(100);
    expect(await isDone()).toBe(true);
  });

  it('starts at once where the page has no hero, and after a frame where it has loaded already', async () => {
    expect(await settled(afterHeroPainted(pageWith(null)))()).toBe(true);
    const isDone = settled(afterHeroPainted(pageWith(heroImage(true))));
    await vi.advanceTimersByTimeAsync(100);
    expect(await isDone()).toBe(true);
  });

  it('does not wait for a hero that fails, nor longer than its limit for a slow one', async () => {
    const broken = heroImage(false);
    const afterError = settled(afterHeroPainted(pageWith(broken)));
    broken.dispatchEvent(new Event('error'));
    await vi.advanceTimersByTimeAsync(100);
    expect(await afterError()).toBe(true);

    const slow = settled(afterHeroPainted(pageWith(heroImage(false))));
    await vi.advanceTimersByTimeAsync(1499);
    expect(await slow()).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(await slow()).toBe(true);
  });
});
