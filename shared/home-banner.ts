/**
 * The home page's banner: the largest paint of `/` (issue 39), drawn by the server's first paint
 * (src-server/http/page-shell.ts, which also preloads it) and then by React (routes/buyer/index.tsx)
 * with the same attributes, so the browser picks the same file both times and fetches it once.
 *
 * Sized files (scripts/make-demo-images.ts): a phone fetches the 1000 px one (≈ 12 KB) rather than the
 * 1600 px one (≈ 22 KB) it scaled down before; on slow 4G the banner shares the line with the scripts,
 * so its bytes were a large part of the largest paint.
 */
export const HOME_BANNER = {
  src: '/images/banner-home.webp',
  srcSet: [
    '/images/banner-home-640.webp 640w',
    '/images/banner-home-1000.webp 1000w',
    '/images/banner-home.webp 1600w',
  ].join(', '),
  /**
   * The width the banner is drawn at. It is `object-cover` at a fixed height, so on a phone its drawn
   * width is the height (h-44, 176 px) times its 3.2 shape, 563 px, wider than the screen; from `sm`
   * it is about the box's width (max-w-7xl less the 16 px padding each side).
   */
  sizes: '(min-width: 1280px) 1248px, (min-width: 640px) calc(100vw - 32px), 563px',
  width: 1600,
  height: 500,
} as const;
