import { useWatch } from 'react-hook-form';
import type { DetailsPartProps } from './event-details-part.ts';
import { errorOf } from './event-details-part.ts';
import { ImageUploadField } from './image-upload-field.tsx';

/**
 * The poster, the banner and a photo per artist. Pictures are uploaded to an event, so they appear once
 * there is one (`eventId`, the editor); before, a line says so.
 */
export function EventPicturesFields({
  form,
  eventId,
  onEdit,
  onBusyChange,
}: Pick<DetailsPartProps, 'form'> & {
  eventId: string | undefined;
  /** A picture chosen or removed: the 'Saved.' goes. */
  onEdit: () => void;
  /** An upload starts or ends (saving waits for it). */
  onBusyChange: (busy: boolean) => void;
}) {
  const lineup = useWatch({ control: form.control, name: 'artists' });
  if (!eventId)
    return (
      <p className="text-sm text-gray-700">
        You can add the poster and other pictures once the draft is created.
      </p>
    );
  const setPicture = (name: 'posterUrl' | 'bannerUrl', url: string | null) => {
    form.setValue(name, url, { shouldDirty: true, shouldValidate: true });
    onEdit();
  };
  const setArtistPhoto = (index: number, url: string | null) => {
    const next = form.getValues('artists').map((a, i) => (i === index ? { ...a, imageUrl: url } : a));
    form.setValue('artists', next, { shouldDirty: true, shouldValidate: true });
    onEdit();
  };
  return (
    <fieldset className="space-y-5 rounded-xl border border-gray-200 p-4">
      <legend className="px-1 text-base font-bold text-gray-900">Pictures</legend>
      <ImageUploadField
        label="Poster image"
        kind="poster"
        eventId={eventId}
        value={form.watch('posterUrl') ?? null}
        onChange={(url) => setPicture('posterUrl', url)}
        onBusyChange={onBusyChange}
        error={errorOf(form, 'posterUrl')}
      />
      <ImageUploadField
        label="Banner image"
        kind="banner"
        eventId={eventId}
        value={form.watch('bannerUrl') ?? null}
        onChange={(url) => setPicture('bannerUrl', url)}
        onBusyChange={onBusyChange}
        error={errorOf(form, 'bannerUrl')}
      />
      {lineup.map((artist, index) => (
        <ImageUploadField
          key={artist.name}
          label={`Photo of ${artist.name}`}
          kind="artist"
          eventId={eventId}
          value={artist.imageUrl ?? null}
          onChange={(url) => setArtistPhoto(index, url)}
          onBusyChange={onBusyChange}
          error={form.formState.errors.artists?.[index]?.imageUrl?.message}
        />
      ))}
      <p className="text-sm text-gray-700">
        New pictures are kept when you save the details. The banner is optional: without one the event page
        shows the poster.
      </p>
    </fieldset>
  );
}
