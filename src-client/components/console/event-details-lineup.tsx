import { Controller } from 'react-hook-form';
import { TextAreaField } from '../auth-fields.tsx';
import type { DetailsPartProps } from './event-details-part.ts';

/** The event's terms and its line-up, each edited as a list of lines. */
export function EventLineupFields({ form }: Pick<DetailsPartProps, 'form'>) {
  return (
    <>
      <Controller
        control={form.control}
        name="termsAndConditions"
        render={({ field: f, fieldState }) => (
          <LinesField
            label="Terms (one per line)"
            rows={4}
            error={fieldState.error?.message ?? form.formState.errors.termsAndConditions?.[0]?.message}
            initial={f.value}
            onLines={f.onChange}
            onBlur={f.onBlur}
          />
        )}
      />
      <Controller
        control={form.control}
        name="artists"
        render={({ field: f, fieldState }) => (
          <LinesField
            label="Artists (one per line)"
            rows={3}
            error={fieldState.error?.message ?? form.formState.errors.artists?.[0]?.name?.message}
            initial={f.value.map((a) => a.name)}
            onLines={(names) => {
              // An artist whose name stays keeps the photo already chosen.
              const photos = new Map(f.value.map((a) => [a.name, a.imageUrl ?? null]));
              f.onChange(names.map((name) => ({ name, imageUrl: photos.get(name) ?? null })));
            }}
            onBlur={f.onBlur}
          />
        )}
      />
    </>
  );
}

const lines = (text: string) =>
  text
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);

/** A text area edited as a list, one entry per non-empty line. */
function LinesField(props: {
  label: string;
  rows: number;
  error: string | undefined;
  initial: string[];
  onLines: (lines: string[]) => void;
  onBlur: () => void;
}) {
  return (
    <TextAreaField
      label={props.label}
      rows={props.rows}
      error={props.error}
      defaultValue={props.initial.join('\n')}
      onChange={(e) => props.onLines(lines(e.target.value))}
      onBlur={props.onBlur}
    />
  );
}
