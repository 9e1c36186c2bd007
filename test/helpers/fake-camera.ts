import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import QRCode from 'qrcode';
import { type Browser, CHROMIUM_PATH, type Locator } from './browser.ts';

/** The fake camera's picture: 640×480, as gate.test.ts's videos are. */
const W = 640;
const H = 480;

/**
 * The QR images a page shows (`<img>`s under `images`), each as the luma plane of a camera frame: the
 * image itself, drawn by the browser that shows it, centred on white. So the gate reads the very picture
 * the buyer holds up, not a code the test drew from a token of its own.
 */
export async function cameraFramesOf(images: Locator): Promise<Buffer[]> {
  const planes = await images.evaluateAll(
    (imgs, size) =>
      imgs.map((el) => {
        const img = el as HTMLImageElement;
        if (!img.complete || img.naturalWidth === 0) throw new Error('A QR image has not loaded');
        const canvas = document.createElement('canvas');
        canvas.width = size.w;
        canvas.height = size.h;
        const ctx = canvas.getContext('2d')!;
        ctx.fillStyle = '#fff';
        ctx.fillRect(0, 0, size.w, size.h);
        // Sharp module edges, about 440 px of the 480 high, as a phone held up to the gate fills the view.
        ctx.imageSmoothingEnabled = false;
        const side = Math.min(440, img.naturalWidth * Math.max(1, Math.floor(440 / img.naturalWidth)));
        ctx.drawImage(img, (size.w - side) / 2, (size.h - side) / 2, side, side);
        const { data } = ctx.getImageData(0, 0, size.w, size.h);
        // BT.601 studio-range luma (16 black … 235 white), as Y4M's C420jpeg frames carry it.
        let binary = '';
        for (let i = 0; i < data.length; i += 4) {
          const y = 16 + (219 * (0.299 * data[i]! + 0.587 * data[i + 1]! + 0.114 * data[i + 2]!)) / 255;
          binary += String.fromCharCode(Math.round(y));
        }
        return btoa(binary);
      }),
    { w: W, h: H },
  );
  return planes.map((p) => Buffer.from(p, 'base64'));
}

/**
 * `text` as a QR code drawn black on white in a camera frame's luma plane, for tests that make a code
 * the page does not show (a forged, foreign or offline-signed ticket).
 */
export function qrFrame(text: string): Buffer {
  const qr = QRCode.create(text, { errorCorrectionLevel: 'M' });
  const n = qr.modules.size;
  const scale = Math.floor(400 / (n + 8));
  const left = Math.floor((W - n * scale) / 2);
  const top = Math.floor((H - n * scale) / 2);
  const luma = Buffer.alloc(W * H, 235);
  for (let r = 0; r < n; r++)
    for (let c = 0; c < n; c++)
      if (qr.modules.get(r, c))
        for (let dy = 0; dy < scale; dy++) {
          const row = (top + r * scale + dy) * W;
          luma.fill(16, row + left + c * scale, row + left + (c + 1) * scale);
        }
  return luma;
}

/**
 * A YUV4MPEG2 file for Chromium's fake camera (4:2:0, 5 frames a second, looped by Chromium) showing
 * `luma` for 2 s, then nothing for 2.4 s, as a ticket held up and taken away again: the gate reads a code
 * again only once it has been out of view (`AWAY_MS`) and its result was dismissed.
 */
export function cameraVideo(luma: Buffer): string {
  if (luma.length !== W * H) throw new Error(`A camera frame is ${W}×${H} luma bytes`);
  const chroma = Buffer.alloc((W / 2) * (H / 2), 128);
  const frame = Buffer.concat([Buffer.from('FRAME\n'), luma, chroma, chroma]);
  const blank = Buffer.concat([Buffer.from('FRAME\n'), Buffer.alloc(W * H, 235), chroma, chroma]);
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'jalsa-y4m-')), 'qr.y4m');
  writeFileSync(
    file,
    Buffer.concat([
      Buffer.from(`YUV4MPEG2 W${W} H${H} F5:1 Ip A1:1 C420jpeg\n`),
      ...Array<Buffer>(10).fill(frame),
      ...Array<Buffer>(12).fill(blank),
    ]),
  );
  return file;
}

/**
 * A full Chromium whose camera shows `video`, allowed without asking. Chromium takes the fake camera's
 * file once, at launch: a different picture needs a browser of its own.
 */
export function cameraBrowser(video: string, { autoAllow = true } = {}): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
      '--disable-quic',
      '--use-fake-device-for-media-stream',
      `--use-file-for-fake-video-capture=${video}`,
      // Without it, the camera waits for a permission the test grants (or refuses) itself.
      ...(autoAllow ? ['--use-fake-ui-for-media-stream'] : []),
    ],
  });
}
