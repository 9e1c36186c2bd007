import { useId, useState } from 'react';
import { IMAGE_SIZES, type ImageKind, MIN_IMAGE_SIZE } from '../../../shared/event-images.ts';
import { SOMETHING_WENT_WRONG } from '../../lib/auth.ts';
import { uploadEventImage } from '../../lib/upload-image.ts';

/** How each kind's preview is framed: the shape the pages crop it to. */
const PREVIEW_CLASS: Record<ImageKind, string> = {
  poster: 'aspect-[3/4] w-32',
  banner: 'aspect-[2/1] w-64',
  artist: 'aspect-square w-20 rounded-full',
};

/**
 * One picture of the event: its preview, a file picker that uploads at once (with progress, the picker
 * disabled meanwhile), the upload's error beside it, and Remove. The URL it reports is saved with the
 * rest of the details.
 */
export function ImageUploadField({
  label,
  kind,
  eventId,
  value,
  onChange,
  onBusyChange,
  error,
}: {
  label: string;
  kind: ImageKind;
  eventId: string;
  value: string | null;
  onChange: (url: string | null) => void;
  onBusyChange: (busy: boolean) => void;
  error?: string;
}) {
  const id = useId();
  const [progress, setProgress] = useState<number | null>(null);
  const [uploadError, setUploadError] = useState<string | null>(null);
  const size = IMAGE_SIZES[kind][0];
  const min = MIN_IMAGE_SIZE[kind];
  const message = uploadError ?? error;

  const upload = async (file: File) => {
    setUploadError(null);
    setProgress(0);
    onBusyChange(true);
    try {
      const uploaded = await uploadEventImage(eventId, kind, file, setProgress);
      onChange(uploaded.url);
    } catch (e) {
      setUploadError(e instanceof Error ? e.message : SOMETHING_WENT_WRONG);
    } finally {
      setProgress(null);
      onBusyChange(false);
    }
  };

  return (
    <div className="flex flex-wrap items-start gap-4">
      <div className={`${PREVIEW_CLASS[kind]} shrink-0 overflow-hidden bg-gray-100 ring-1 ring-gray-200`}>
        {value ? (
          <img src={value} alt={`${label} preview`} className="h-full w-full object-cover" />
        ) : (
          <span className="flex h-full items-center justify-center p-2 text-center text-xs text-gray-600">
            No picture
          </span>
        )}
      </div>
      <div className="min-w-40 flex-1 space-y-1">
        <label htmlFor={id} className="block text-sm font-semibold text-gray-900">
          {label}
        </label>
        <input
          id={id}
          type="file"
          accept="image/jpeg,image/png,image/webp"
          disabled={progress !== null}
          aria-describedby={`${id}-hint${message ? ` ${id}-error` : ''}`}
          aria-invalid={message ? true : undefined}
          onChange={(e) => {
            const file = e.target.files?.[0];
            e.target.value = '';
            if (file) void upload(file);
          }}
          className="block w-full text-sm text-gray-800 file:mr-3 file:rounded-md file:border file:border-gray-300 file:bg-white file:px-3 file:py-1.5 file:text-sm file:font-semibold disabled:opacity-60"
        />
        <p id={`${id}-hint`} className="text-xs text-gray-600">
          JPEG, PNG or WebP, up to 8 MB, at least {min.width} × {min.height} px (shown at {size.width} ×{' '}
          {size.height}).
        </p>
        {progress !== null && (
          <div className="flex items-center gap-2 text-sm text-gray-700">
            <progress value={progress} max={1} aria-label={`Uploading ${label.toLowerCase()}`} />
            <span>Uploading… {Math.round(progress * 100)} %</span>
          </div>
        )}
        {message && (
          <p id={`${id}-error`} role="alert" className="text-sm text-red-700">
            {message}
          </p>
        )}
        {value && progress === null && (
          <button
            type="button"
            onClick={() => {
              setUploadError(null);
              onChange(null);
            }}
            className="text-sm font-semibold text-brand-700 underline"
          >
            Remove {label.toLowerCase()}
          </button>
        )}
      </div>
    </div>
  );
}
