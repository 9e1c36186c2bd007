/**
 * Runs `work` once the pointer pressed now is released and its click has landed, or at once when no
 * pointer is down (a Tab, a programmatic blur). A field that closes on blur would otherwise change the
 * page's layout between the press and the release of the tap that left it, so that tap's click lands
 * on whatever moved under it, or nowhere (issue 35: a buyer's tap on "Need a GST invoice" was lost).
 */
export function afterPointerRelease(work: () => void): void {
  if (pointerDown) waiting.push(work);
  else work();
}

let pointerDown = false;
const waiting: (() => void)[] = [];

if (typeof document !== 'undefined') {
  document.addEventListener('pointerdown', () => (pointerDown = true), { capture: true });
  const release = () => {
    pointerDown = false;
    // After the click that follows pointerup on the same tap.
    setTimeout(() => {
      for (const work of waiting.splice(0)) work();
    });
  };
  document.addEventListener('pointerup', release, { capture: true });
  document.addEventListener('pointercancel', release, { capture: true });
}
