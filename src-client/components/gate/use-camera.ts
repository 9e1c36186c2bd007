import { useEffect, useRef, useState } from 'react';
import { type Camera, openCamera } from '../../gate/scanner.ts';

/** The camera shown in the scanner's video: which way it faces, a retry after a refusal, and the torch. */
export function useCamera() {
  const video = useRef<HTMLVideoElement>(null);
  const [facing, setFacing] = useState<'environment' | 'user'>('environment');
  const [cameraTry, setCameraTry] = useState(0);
  const [camera, setCamera] = useState<Camera | null>(null);
  const [cameraError, setCameraError] = useState<string | null>(null);
  const [torch, setTorch] = useState(false);

  // biome-ignore lint/correctness/useExhaustiveDependencies: cameraTry re-opens the camera after a refusal
  useEffect(() => {
    let cam: Camera | null = null;
    let alive = true;
    openCamera(facing)
      .then((c) => {
        if (!alive) return c.stop();
        cam = c;
        setCamera(c);
        setCameraError(null);
        if (video.current) {
          video.current.srcObject = c.stream;
          void video.current.play();
        }
      })
      .catch(() => setCameraError('The camera could not be opened. Allow the camera, or use Look up.'));
    return () => {
      alive = false;
      cam?.stop();
    };
  }, [facing, cameraTry]);

  return {
    video,
    cameraError,
    retry: () => setCameraTry((n) => n + 1),
    switchFacing: () => setFacing((f) => (f === 'environment' ? 'user' : 'environment')),
    hasTorch: Boolean(camera?.torch),
    torch,
    toggleTorch: () => {
      void camera?.setTorch(!torch);
      setTorch(!torch);
    },
  };
}
