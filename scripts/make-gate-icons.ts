import { readFileSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';

/**
 * Renders the gate's home-screen icons from public/favicon.svg into public/gate-icons/ (committed: no
 * image service at run time). Android wants PNGs of 192 and 512 pixels and a maskable one (the launcher
 * crops it to its own shape, so the mark sits inside the central safe circle on a full-bleed
 * background); iOS takes a 180-pixel apple-touch-icon and rounds the corners itself. Run again after
 * changing the favicon: `npx tsx scripts/make-gate-icons.ts`.
 */
const PUBLIC = path.resolve(import.meta.dirname, '../public');

async function main() {
  const favicon = readFileSync(path.join(PUBLIC, 'favicon.svg'), 'utf8').trim();
  const background = /<rect[^>]*fill="([^"]+)"/.exec(favicon)?.[1] ?? '#e11d48';
  const mark = favicon
    .replace(/^<svg[^>]*>/, '')
    .replace(/<\/svg>$/, '')
    .replace(/<rect[^>]*\/>/, '');
  // The favicon's own rounded square, for launchers that show the icon as it is.
  const rounded = favicon;
  // Full bleed, the mark scaled about the centre: 0.7 keeps it inside the maskable safe circle (radius
  // 40% of the icon), 0.85 leaves iOS's corner rounding a margin.
  const fullBleed = (scale: number) =>
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" fill="${background}"/>` +
    `<g transform="translate(32 32) scale(${scale}) translate(-32 -32)">${mark}</g></svg>`;
  const icons: [string, string, number][] = [
    ['gate-icon-192.png', rounded, 192],
    ['gate-icon-512.png', rounded, 512],
    ['gate-icon-maskable-512.png', fullBleed(0.7), 512],
    ['gate-apple-touch-icon.png', fullBleed(0.85), 180],
  ];
  for (const [file, svg, size] of icons) {
    await sharp(Buffer.from(svg), { density: (72 * size) / 64 })
      .resize(size, size)
      .png({ compressionLevel: 9 })
      .toFile(path.join(PUBLIC, 'gate-icons', file));
    console.log(`public/gate-icons/${file} (${size}×${size})`);
  }
}

await main();
