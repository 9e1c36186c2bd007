import type { ComponentProps } from 'react';
import { LineIcon } from './line-icon.tsx';

/**
 * The search text box with its magnifier and 'Search events' label, used by the top bar and the search
 * page's typeahead; each passes its own sizes, behaviour and (for the typeahead) combobox attributes.
 */
export function SearchInput({
  labelClassName,
  ...input
}: { labelClassName: string } & Omit<ComponentProps<'input'>, 'type' | 'maxLength'>) {
  return (
    <label className={`relative ${labelClassName}`}>
      <span className="sr-only">Search events</span>
      <LineIcon
        size={18}
        className="pointer-events-none absolute left-3 top-1/2 -translate-y-1/2 text-gray-500"
      >
        <circle cx="11" cy="11" r="7" />
        <path d="M20 20l-3.5-3.5" />
      </LineIcon>
      <input type="search" maxLength={100} {...input} />
    </label>
  );
}
