import { CATEGORY_LABELS, EVENT_CATEGORIES } from '../../../shared/categories.ts';
import { CityField, SelectField, TextAreaField, TextField } from '../auth-fields.tsx';
import { type DetailsPartProps, emptyToNull, errorOf, numberOrDefault } from './event-details-part.ts';

/** The event itself: name, category, city, venue, map, description, and the numbers about a booking. */
export function EventBasicsFields({ form, field }: DetailsPartProps) {
  return (
    <>
      <TextField label="Event name" maxLength={120} {...field('name')} />
      <div className="grid gap-4 sm:grid-cols-2">
        <SelectField
          label="Category"
          placeholder="Choose a category"
          options={EVENT_CATEGORIES}
          optionLabels={CATEGORY_LABELS}
          {...field('category')}
        />
        <CityField {...field('city')} />
      </div>
      <TextField label="Venue" maxLength={300} {...field('eventLocationText')} />
      <TextField
        label="Map link"
        hint="Google Maps: Share, then Copy link (or Embed a map, then Copy HTML). Optional."
        maxLength={2000}
        {...field('googleMapsEmbedLink')}
      />
      <TextAreaField label="Description" rows={5} maxLength={5000} {...field('description')} />
      <div className="grid gap-4 sm:grid-cols-3">
        <TextField
          label="Age limit"
          inputMode="numeric"
          error={errorOf(form, 'ageRestrictions')}
          {...form.register('ageRestrictions', { setValueAs: emptyToNull })}
        />
        <TextField label="Language" maxLength={60} {...field('language')} />
        <TextField
          label="Convenience fee (%)"
          inputMode="decimal"
          error={errorOf(form, 'platformFeeRate')}
          {...form.register('platformFeeRate', { setValueAs: emptyToNull })}
        />
        <TextField
          label="Max tickets per buyer"
          inputMode="numeric"
          hint="Held and booked together; empty for no limit"
          error={errorOf(form, 'maxTicketsPerBuyer')}
          {...form.register('maxTicketsPerBuyer', { setValueAs: emptyToNull })}
        />
        <TextField
          label="Waiting-list offer time (minutes)"
          inputMode="numeric"
          hint="How long returned seats stay held for the next person on the waiting list"
          error={errorOf(form, 'waitlistOfferMinutes')}
          {...form.register('waitlistOfferMinutes', { setValueAs: numberOrDefault })}
        />
      </div>
    </>
  );
}
