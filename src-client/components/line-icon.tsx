import type { ComponentProps } from 'react';

/**
 * A decorative 24×24 outline icon stroked in the text colour, hidden from screen readers (its button or
 * link carries the name). `size` is its width and height in pixels; without it, size it with classes.
 */
export function LineIcon({
  size,
  strokeWidth = 2,
  children,
  ...rest
}: ComponentProps<'svg'> & { size?: number }) {
  return (
    <svg
      viewBox="0 0 24 24"
      width={size}
      height={size}
      aria-hidden="true"
      fill="none"
      stroke="currentColor"
      strokeWidth={strokeWidth}
      {...rest}
    >
      {children}
    </svg>
  );
}
