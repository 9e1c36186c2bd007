import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { CATEGORY_LABELS, type EventCategory } from '../shared/categories.ts';
import { artistSlug, DEMO_EVENTS, type DemoEvent } from '../src-server/db/seed/demo-catalog.ts';

/**
 * Draws the demo catalogue's pictures (posters, wide event images, artist portraits, the home banner,
 * the default link-preview image, city icons and the favicon) as SVG and renders them with sharp into
 * public/images/. The files are committed, so the app needs no network and no image service at run
 * time. Run again after changing src-server/db/seed/demo-catalog.ts: `npx tsx scripts/make-demo-images.ts`.
 */
const PUBLIC = path.resolve(import.meta.dirname, '../public');
const FONT = "'DejaVu Sans', 'Liberation Sans', Arial, sans-serif";

const PALETTES: Record<EventCategory, [string, string, string]> = {
  concerts: ['#4c1d95', '#db2777', '#fde68a'],
  sports: ['#064e3b', '#0ea5e9', '#fef08a'],
  shows: ['#7c2d12', '#f59e0b', '#fff7ed'],
  comedy: ['#1e3a8a', '#f43f5e', '#fde047'],
  workshops: ['#134e4a', '#84cc16', '#ecfccb'],
  others: ['#581c87', '#f97316', '#fef3c7'],
};

async function main() {
  for (const dir of ['images/events', 'images/artists', 'images/cities']) {
    mkdirSync(path.join(PUBLIC, dir), { recursive: true });
  }
  let bytes = 0;
  const write = async (
    file: string,
    svg: string,
    format: 'webp' | 'jpeg',
    quality: number,
    width?: number,
  ) => {
    const image = sharp(Buffer.from(svg)).resize(width);
    const out =
      format === 'webp'
        ? await image.webp({ quality, effort: 6 }).toBuffer()
        : await image.jpeg({ quality, mozjpeg: true }).toBuffer();
    writeFileSync(path.join(PUBLIC, file), out);
    bytes += out.length;
  };

  const artists = new Map<string, EventCategory>();
  for (const event of DEMO_EVENTS) {
    await write(`images/events/${event.id}-poster.webp`, poster(event), 'webp', 72);
    await write(`images/events/${event.id}-wide.webp`, wide(event), 'webp', 70);
    for (const name of event.artists) artists.set(name, event.category);
  }
  for (const [name, category] of artists) {
    await write(`images/artists/${artistSlug(name)}.webp`, artist(name, category), 'webp', 75);
  }
  await write('images/banner-home.webp', banner(), 'webp', 72);
  // The smaller sizes shared/home-banner.ts offers a phone (its srcset).
  for (const width of [640, 1000])
    await write(`images/banner-home-${width}.webp`, banner(), 'webp', 72, width);
  await write('images/event-default.webp', fallbackPoster(), 'webp', 72);
  await write('images/og-default.jpg', ogDefault(), 'jpeg', 78);
  for (const [slug, drawing] of Object.entries(CITY_ICONS)) {
    writeFileSync(path.join(PUBLIC, `images/cities/${slug}.svg`), cityIcon(drawing));
  }
  writeFileSync(path.join(PUBLIC, 'favicon.svg'), FAVICON);
  console.log(
    `Wrote ${DEMO_EVENTS.length} posters and wide images, ${artists.size} artists: ${(bytes / 1024).toFixed(0)} KB`,
  );
}

/** A small deterministic number generator, so re-running the script draws the same pictures. */
function seeded(text: string) {
  let h = 2166136261;
  for (const ch of text) h = Math.imul(h ^ ch.charCodeAt(0), 16777619);
  return () => {
    h = Math.imul(h ^ (h >>> 15), 2246822507);
    h = Math.imul(h ^ (h >>> 13), 3266489909);
    h ^= h >>> 16;
    return (h >>> 0) / 4294967296;
  };
}

function escapeXml(text: string) {
  return text.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}

/** Greedy word wrap by character count (good enough for a bold sans-serif title). */
function wrap(text: string, maxChars: number, maxLines: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/)) {
    if (line && `${line} ${word}`.length > maxChars) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(line);
  if (lines.length > maxLines) {
    const kept = lines.slice(0, maxLines);
    kept[maxLines - 1] = `${kept[maxLines - 1]}…`;
    return kept;
  }
  return lines;
}

/** Category-flavoured decoration: rings for music, tracks for sports, spotlights for shows, etc. */
function decoration(
  event: Pick<DemoEvent, 'id' | 'category'>,
  width: number,
  height: number,
  accent: string,
) {
  const rnd = seeded(event.id);
  const parts: string[] = [];
  switch (event.category) {
    case 'concerts':
      for (let i = 0; i < 7; i++) {
        const r = 60 + i * 55;
        parts.push(
          `<circle cx="${width * 0.8}" cy="${height * 0.28}" r="${r}" fill="none" stroke="${accent}" stroke-opacity="${0.35 - i * 0.04}" stroke-width="${6 + rnd() * 10}"/>`,
        );
      }
      break;
    case 'sports':
      for (let i = 0; i < 6; i++) {
        parts.push(
          `<path d="M${-50} ${height * 0.15 + i * 38} Q ${width / 2} ${height * 0.05 + i * 38 + rnd() * 60} ${width + 50} ${height * 0.2 + i * 38}" fill="none" stroke="${accent}" stroke-opacity="0.28" stroke-width="14"/>`,
        );
      }
      break;
    case 'shows':
      for (let i = 0; i < 3; i++) {
        const x = width * (0.2 + i * 0.3);
        parts.push(
          `<polygon points="${x},0 ${x - 140 - rnd() * 60},${height * 0.7} ${x + 140 + rnd() * 60},${height * 0.7}" fill="${accent}" fill-opacity="0.16"/>`,
        );
      }
      break;
    case 'comedy':
      for (let i = 0; i < 14; i++) {
        parts.push(
          `<circle cx="${rnd() * width}" cy="${rnd() * height * 0.55}" r="${12 + rnd() * 46}" fill="${accent}" fill-opacity="${0.12 + rnd() * 0.22}"/>`,
        );
      }
      break;
    case 'workshops':
      for (let x = 0; x < width; x += 48) {
        parts.push(
          `<line x1="${x}" y1="0" x2="${x}" y2="${height * 0.6}" stroke="${accent}" stroke-opacity="0.18" stroke-width="2"/>`,
        );
      }
      for (let y = 0; y < height * 0.6; y += 48) {
        parts.push(
          `<line x1="0" y1="${y}" x2="${width}" y2="${y}" stroke="${accent}" stroke-opacity="0.18" stroke-width="2"/>`,
        );
      }
      parts.push(
        `<rect x="${width * 0.55}" y="${height * 0.08}" width="${width * 0.3}" height="${width * 0.3}" rx="24" fill="${accent}" fill-opacity="0.3" transform="rotate(${rnd() * 30 - 15} ${width * 0.7} ${height * 0.2})"/>`,
      );
      break;
    default:
      for (let i = 0; i < 24; i++) {
        const cx = rnd() * width;
        const cy = rnd() * height * 0.6;
        const s = 6 + rnd() * 14;
        parts.push(
          `<path d="M${cx} ${cy - s} L${cx + s * 0.3} ${cy - s * 0.3} L${cx + s} ${cy} L${cx + s * 0.3} ${cy + s * 0.3} L${cx} ${cy + s} L${cx - s * 0.3} ${cy + s * 0.3} L${cx - s} ${cy} L${cx - s * 0.3} ${cy - s * 0.3}Z" fill="${accent}" fill-opacity="${0.3 + rnd() * 0.5}"/>`,
        );
      }
  }
  return parts.join('');
}

function poster(event: DemoEvent): string {
  const [dark, mid, light] = PALETTES[event.category];
  const w = 600;
  const h = 800;
  const titleLines = wrap(event.name.toUpperCase(), 15, 4);
  const titleSize = titleLines.some((l) => l.length > 12) ? 50 : 58;
  const titleTop = h - 250 - titleLines.length * (titleSize + 8);
  const venue = wrap(event.venue, 38, 2);
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}" viewBox="0 0 ${w} ${h}">
  <defs><linearGradient id="g" x1="0" y1="0" x2="0.4" y2="1"><stop offset="0" stop-color="${mid}"/><stop offset="1" stop-color="${dark}"/></linearGradient></defs>
  <rect width="${w}" height="${h}" fill="url(#g)"/>
  ${decoration(event, w, h, light)}
  <text x="40" y="64" font-family="${FONT}" font-size="20" font-weight="700" letter-spacing="6" fill="${light}">JALSA PRESENTS</text>
  ${titleLines
    .map(
      (line, i) =>
        `<text x="40" y="${titleTop + i * (titleSize + 8)}" font-family="${FONT}" font-size="${titleSize}" font-weight="800" fill="#ffffff">${escapeXml(line)}</text>`,
    )
    .join('')}
  <rect x="40" y="${h - 220}" width="${CATEGORY_LABELS[event.category].length * 15 + 36}" height="40" rx="20" fill="${light}"/>
  <text x="58" y="${h - 193}" font-family="${FONT}" font-size="20" font-weight="700" fill="${dark}">${CATEGORY_LABELS[event.category].toUpperCase()}</text>
  <text x="40" y="${h - 130}" font-family="${FONT}" font-size="34" font-weight="700" fill="${light}">${escapeXml(event.city)}</text>
  ${venue
    .map(
      (line, i) =>
        `<text x="40" y="${h - 90 + i * 28}" font-family="${FONT}" font-size="21" fill="#ffffff" fill-opacity="0.85">${escapeXml(line)}</text>`,
    )
    .join('')}
</svg>`;
}

function wide(event: DemoEvent): string {
  const [dark, mid, light] = PALETTES[event.category];
  const w = 1200;
  const h = 600;
  const titleLines = wrap(event.name, 24, 3);
  const top = 300 - ((titleLines.length - 1) * 72) / 2;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}" viewBox="0 0 ${w} ${h}">
  <defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${dark}"/><stop offset="1" stop-color="${mid}"/></linearGradient></defs>
  <rect width="${w}" height="${h}" fill="url(#g)"/>
  ${decoration(event, w, h * 1.6, light)}
  ${titleLines
    .map(
      (line, i) =>
        `<text x="64" y="${top + i * 72}" font-family="${FONT}" font-size="62" font-weight="800" fill="#ffffff">${escapeXml(line)}</text>`,
    )
    .join('')}
  <text x="64" y="${h - 64}" font-family="${FONT}" font-size="28" font-weight="700" fill="${light}">${escapeXml(`${CATEGORY_LABELS[event.category]} · ${event.city}`)}</text>
</svg>`;
}

function artist(name: string, category: EventCategory): string {
  const [dark, mid, light] = PALETTES[category];
  const initials = name
    .replace(/\(.*\)/, '')
    .split(/\s+/)
    .filter((word) => /^[A-Za-z]/.test(word) && !['the', 'of', 'by'].includes(word.toLowerCase()))
    .slice(0, 2)
    .map((word) => word[0]!.toUpperCase())
    .join('');
  return `<svg xmlns="http://www.w3.org/2000/svg" width="300" height="300" viewBox="0 0 300 300">
  <defs><radialGradient id="g" cx="0.3" cy="0.3" r="0.9"><stop offset="0" stop-color="${mid}"/><stop offset="1" stop-color="${dark}"/></radialGradient></defs>
  <rect width="300" height="300" fill="url(#g)"/>
  <circle cx="150" cy="118" r="56" fill="${light}" fill-opacity="0.25"/>
  <path d="M52 300 C 60 210, 240 210, 248 300 Z" fill="${light}" fill-opacity="0.25"/>
  <text x="150" y="140" text-anchor="middle" font-family="${FONT}" font-size="64" font-weight="800" fill="#ffffff">${escapeXml(initials)}</text>
</svg>`;
}

/** The home banner's picture; its words are HTML over it, so they reflow on phones. */
function banner(): string {
  const w = 1600;
  const h = 500;
  const rnd = seeded('banner');
  const lights = Array.from({ length: 40 }, () => {
    const x = rnd() * w;
    const y = rnd() * h;
    return `<circle cx="${x}" cy="${y}" r="${4 + rnd() * 40}" fill="#fde68a" fill-opacity="${0.08 + rnd() * 0.25}"/>`;
  }).join('');
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}" viewBox="0 0 ${w} ${h}">
  <defs>
    <linearGradient id="g" x1="0" y1="0" x2="1" y2="0.6"><stop offset="0" stop-color="#881337"/><stop offset="0.55" stop-color="#e11d48"/><stop offset="1" stop-color="#f59e0b"/></linearGradient>
  </defs>
  <rect width="${w}" height="${h}" fill="url(#g)"/>
  ${lights}
  <path d="M0 420 Q 200 360 400 410 T 800 400 T 1200 420 T 1600 390 V500 H0Z" fill="#4c0519" fill-opacity="0.55"/>
  ${Array.from({ length: 26 }, (_, i) => {
    const x = 60 + i * 60 + rnd() * 20;
    const top = 380 + rnd() * 30;
    return `<circle cx="${x}" cy="${top}" r="16" fill="#1f0610"/><path d="M${x - 22} 500 L${x - 16} ${top + 16} L${x + 16} ${top + 16} L${x + 22} 500Z" fill="#1f0610"/><line x1="${x}" y1="${top}" x2="${x + (rnd() > 0.5 ? 30 : -30)}" y2="${top - 60}" stroke="#1f0610" stroke-width="9" stroke-linecap="round"/>`;
  }).join('')}
</svg>`;
}

function fallbackPoster(): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" width="600" height="800" viewBox="0 0 600 800">
  <defs><linearGradient id="g" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#e11d48"/><stop offset="1" stop-color="#4c0519"/></linearGradient></defs>
  <rect width="600" height="800" fill="url(#g)"/>
  <text x="300" y="420" text-anchor="middle" font-family="${FONT}" font-size="90" font-weight="800" fill="#ffffff">Jalsa</text>
</svg>`;
}

function ogDefault(): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="630" viewBox="0 0 1200 630">
  <defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#881337"/><stop offset="1" stop-color="#f59e0b"/></linearGradient></defs>
  <rect width="1200" height="630" fill="url(#g)"/>
  <text x="80" y="300" font-family="${FONT}" font-size="140" font-weight="800" fill="#ffffff">Jalsa</text>
  <text x="86" y="380" font-family="${FONT}" font-size="40" fill="#fff1f2">Concerts, sports, comedy and shows near you</text>
</svg>`;
}

/** Landmark line drawings for the nine popular cities, on a 64×64 grid. */
const CITY_ICONS: Record<string, string> = {
  // India Gate
  delhi: 'M14 56V22h36v34M22 56V34a10 10 0 0 1 20 0v22M12 22h40M16 16h32v6M26 10h12v6M8 56h48',
  // Gateway of India
  mumbai: 'M10 56V26h44v30M24 56V38a8 8 0 0 1 16 0v18M10 26l4-8h36l4 8M14 18v-6M50 18v-6M32 18v-8M6 56h52',
  // Open Hand monument
  chandigarh:
    'M32 56V40M20 40h24M22 40c-6-6-8-14-6-22l4 10 2-16 4 14 2-16 4 16 2-14 4 16 4-8c0 8-2 14-6 20M14 56h36',
  // Charminar
  hyderabad:
    'M12 56V18M52 56V18M10 18l2-8 2 8M50 18l2-8 2 8M12 30h40M12 56h40M24 56V44a8 8 0 0 1 16 0v12M22 30v-6h20v6M32 24v-6',
  // Sidi Saiyyed jali (tree of life in an arch)
  ahmedabad:
    'M10 56V30a22 22 0 0 1 44 0v26M32 56V30M32 40c-6-2-12-8-14-14M32 40c6-2 12-8 14-14M32 32c-4-2-8-6-9-12M32 32c4-2 8-6 9-12M6 56h52',
  // Howrah Bridge
  kolkata:
    'M4 44h56M12 44V14h8v30M44 44V14h8v30M20 20c4 10 20 10 24 0M4 44c4-8 8-18 8-30M60 44c-4-8-8-18-8-30M4 52h56',
  // Temple gopuram
  chennai: 'M16 56l4-12h24l4 12M20 44l3-10h18l3 10M23 34l3-9h12l3 9M26 25l3-8h6l3 8M30 17v-6h4v6M10 56h44',
  // Vidhana Soudha
  bengaluru:
    'M8 56V34h48v22M16 34v22M24 34v22M40 34v22M48 34v22M20 34v-6h24v6M22 28c0-10 20-10 20 0M32 18v-6M6 56h52',
  // Shaniwar Wada gate
  pune: 'M8 56V24l6-6 6 6v32M44 56V24l6-6 6 6v32M20 30h24v26M26 56V42a6 6 0 0 1 12 0v14M20 30l4-6h16l4 6M4 56h56',
};

function cityIcon(pathData: string): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64" fill="none" stroke="#be123c" stroke-width="2.5" stroke-linecap="round" stroke-linejoin="round"><path d="${pathData}"/></svg>\n`;
}

const FAVICON = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" rx="14" fill="#e11d48"/><path d="M38 14v26a10 10 0 0 1-20 2" fill="none" stroke="#fff" stroke-width="8" stroke-linecap="round"/><circle cx="48" cy="14" r="4" fill="#fde68a"/></svg>\n`;

await main();
