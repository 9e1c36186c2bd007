/**
 * Continuous QR scanning from the rear camera. The browser's own BarcodeDetector where it exists
 * (Android Chrome), else the `barcode-detector` ponyfill (zxing-wasm). Its .wasm is served by this
 * server (a Vite asset URL), never fetched from a CDN: a venue's phones may have no internet at all.
 */
import { BarcodeDetector, prepareZXingModule } from 'barcode-detector/ponyfill';
import wasmUrl from 'zxing-wasm/reader/zxing_reader.wasm?url';

type Detector = { detect(source: CanvasImageSource): Promise<{ rawValue: string }[]> };

let detectorPromise: Promise<Detector> | null = null;

export function getDetector(): Promise<Detector> {
  if (!detectorPromise) detectorPromise = makeDetector();
  return detectorPromise;
}

async function makeDetector(): Promise<Detector> {
  const native = (
    globalThis as {
      BarcodeDetector?: { new (o: object): Detector; getSupportedFormats(): Promise<string[]> };
    }
  ).BarcodeDetector;
  if (native && (await native.getSupportedFormats()).includes('qr_code'))
    return new native({ formats: ['qr_code'] });
  prepareZXingModule({
    overrides: {
      locateFile: (path: string, prefix: string) => (path.endsWith('.wasm') ? wasmUrl : prefix + path),
    },
    fireImmediately: true,
  });
  return new BarcodeDetector({ formats: ['qr_code'] });
}

export interface Camera {
  stream: MediaStream;
  torch: boolean;
  setTorch(on: boolean): Promise<void>;
  stop(): void;
}

/** Opens a camera (the rear one by default), with the torch if the browser exposes it. */
export async function openCamera(facing: 'environment' | 'user'): Promise<Camera> {
  const stream = await navigator.mediaDevices.getUserMedia({
    audio: false,
    video: { facingMode: { ideal: facing }, width: { ideal: 1280 }, height: { ideal: 720 } },
  });
  const track = stream.getVideoTracks()[0];
  const capabilities = (track?.getCapabilities?.() ?? {}) as { torch?: boolean };
  return {
    stream,
    torch: capabilities.torch === true,
    setTorch: async (on) => {
      await track?.applyConstraints({ advanced: [{ torch: on } as MediaTrackConstraintSet] });
    },
    stop: () => {
      for (const t of stream.getTracks()) t.stop();
    },
  };
}

/**
 * Reads the video every animation frame (at most ~8 times a second) and calls `onCode` with every code
 * it reads, the same one again as long as it stays in view: which reads the gate acts on is
 * `scan-hold.ts`'s decision (a timed repeat filter here re-read a held-up QR and let people in: issue 35).
 */
export function scanContinuously(
  video: HTMLVideoElement,
  onCode: (text: string) => void,
  options: { paused: () => boolean },
): () => void {
  let stopped = false;
  const tick = async () => {
    if (stopped) return;
    try {
      if (!options.paused() && video.readyState >= 2) {
        const detector = await getDetector();
        const [code] = await detector.detect(video);
        if (code?.rawValue && !stopped && !options.paused()) onCode(code.rawValue);
      }
    } catch {
      // A frame the decoder could not read: try the next one.
    }
    if (!stopped) setTimeout(() => requestAnimationFrame(() => void tick()), 120);
  };
  void tick();
  return () => {
    stopped = true;
  };
}

/** A short beep (high: admitted, low and long: refused) and a vibration, so staff need not read. */
export function signal(kind: 'admit' | 'refuse') {
  try {
    navigator.vibrate?.(kind === 'admit' ? 120 : [220, 80, 220]);
    const Ctx =
      window.AudioContext ?? (window as { webkitAudioContext?: typeof AudioContext }).webkitAudioContext;
    if (!Ctx) return;
    const ctx = (signal as { ctx?: AudioContext }).ctx ?? new Ctx();
    (signal as { ctx?: AudioContext }).ctx = ctx;
    const osc = ctx.createOscillator();
    const gain = ctx.createGain();
    osc.type = kind === 'admit' ? 'sine' : 'square';
    osc.frequency.value = kind === 'admit' ? 1320 : 220;
    gain.gain.value = 0.2;
    osc.connect(gain).connect(ctx.destination);
    osc.start();
    osc.stop(ctx.currentTime + (kind === 'admit' ? 0.15 : 0.45));
  } catch {
    // Sound and vibration are a help, never a requirement.
  }
}
