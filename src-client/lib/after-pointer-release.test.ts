// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { afterPointerRelease } from './after-pointer-release.ts';

afterEach(() => vi.useRealTimers());

describe('afterPointerRelease', () => {
  it('runs at once when no pointer is down', () => {
    const work = vi.fn();
    afterPointerRelease(work);
    expect(work).toHaveBeenCalledOnce();
  });

  it('waits for the release and the click after it while a pointer is down', () => {
    vi.useFakeTimers();
    const work = vi.fn();
    document.dispatchEvent(new Event('pointerdown'));
    afterPointerRelease(work);
    expect(work).not.toHaveBeenCalled();
    document.dispatchEvent(new Event('pointerup'));
    expect(work).not.toHaveBeenCalled();
    vi.runAllTimers();
    expect(work).toHaveBeenCalledOnce();
  });
});
