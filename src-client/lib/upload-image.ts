import {
  IMAGE_MESSAGES,
  type ImageKind,
  MAX_UPLOAD_BYTES,
  UPLOAD_TYPES,
  type UploadedImage,
} from '../../shared/event-images.ts';
import { SOMETHING_WENT_WRONG } from './auth.ts';

/**
 * Sends one picture to the editor's upload route (src-server/http/event-images.ts) as the raw body.
 * XMLHttpRequest rather than fetch: it reports upload progress. What the browser says about the file
 * (size, type) only saves a pointless upload; the server judges the content itself.
 */
export function uploadEventImage(
  eventId: string,
  kind: ImageKind,
  file: File,
  onProgress: (fraction: number) => void,
): Promise<UploadedImage> {
  if (file.size > MAX_UPLOAD_BYTES) return Promise.reject(new Error(IMAGE_MESSAGES.tooLarge));
  if (file.type && !(UPLOAD_TYPES as readonly string[]).includes(file.type)) {
    return Promise.reject(new Error(IMAGE_MESSAGES.notAnImage));
  }
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', `/api/organiser/events/${encodeURIComponent(eventId)}/images?kind=${kind}`);
    xhr.setRequestHeader('Content-Type', 'application/octet-stream');
    xhr.responseType = 'json';
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) onProgress(e.loaded / e.total);
    };
    xhr.onload = () => {
      const body = xhr.response as (UploadedImage & { error?: { message?: string } }) | null;
      if (xhr.status === 201 && body?.url) resolve(body);
      else reject(new Error(body?.error?.message ?? messageFor(xhr.status)));
    };
    xhr.onerror = () => reject(new Error('The upload failed. Check your connection and try again.'));
    xhr.send(file);
  });
}

function messageFor(status: number): string {
  if (status === 413) return IMAGE_MESSAGES.tooLarge;
  if (status === 401) return 'Your session has ended. Please sign in again.';
  return SOMETHING_WENT_WRONG;
}
