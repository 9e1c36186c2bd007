import { useEffect, useRef, useState } from 'react';
import type { Banner } from './checkout-banner.ts';

/**
 * The message beside Proceed. A result that arrives while the buyer looks elsewhere (a phone's sticky
 * Proceed bar, a closed payment window) is scrolled to (`showResult`); `setBanner` only says it.
 */
export function useCheckoutBanner() {
  const [banner, setBanner] = useState<Banner | null>(null);
  const bannerBox = useRef<HTMLDivElement>(null);
  const [revealBanner, setRevealBanner] = useState(0);
  useEffect(() => {
    if (revealBanner > 0) bannerBox.current?.scrollIntoView({ block: 'center' });
  }, [revealBanner]);
  const showResult = (next: Banner) => {
    setBanner(next);
    setRevealBanner((n) => n + 1);
  };
  return { banner, setBanner, showResult, bannerBox };
}
