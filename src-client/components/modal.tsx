import * as Dialog from '@radix-ui/react-dialog';
import { type ReactNode, useRef } from 'react';
import { LineIcon } from './line-icon.tsx';

type ModalProps = {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: ReactNode;
  description: ReactNode;
  /** Keeps the description as the dialog's accessible description without showing it. */
  descriptionHidden?: boolean;
  /** Size, padding and layout of the panel, added to the shared centring and look. */
  className: string;
  /** Layout of the row holding the title and the close (X) button. */
  headerClassName: string;
  /** Where focus goes on closing when what had it at opening is no longer on the page. */
  returnFocus?: () => HTMLElement | null;
  /** Where focus goes on closing in place of the opener; null leaves it to the opener (see ModalPanel). */
  focusOnClose?: () => HTMLElement | null;
  children: ReactNode;
};

/** A titled modal with a close (X) button beside its title and a description under it. */
export default function Modal({
  open,
  onOpenChange,
  title,
  description,
  descriptionHidden = false,
  className,
  headerClassName,
  returnFocus,
  focusOnClose,
  children,
}: ModalProps) {
  return (
    <ModalPanel
      open={open}
      onOpenChange={onOpenChange}
      className={className}
      returnFocus={returnFocus}
      focusOnClose={focusOnClose}
    >
      <div className={headerClassName}>
        <Dialog.Title className="text-lg font-bold">{title}</Dialog.Title>
        <Dialog.Close className="rounded-md p-1 text-gray-600 hover:bg-gray-100" aria-label="Close">
          <LineIcon size={22}>
            <path d="M6 6l12 12M18 6L6 18" />
          </LineIcon>
        </Dialog.Close>
      </div>
      <Dialog.Description className={descriptionHidden ? 'sr-only' : 'mt-1 text-sm text-gray-700'}>
        {description}
      </Dialog.Description>
      {children}
    </ModalPanel>
  );
}

/**
 * The bare frame every modal shares: a dimmed page and a centred white panel. Dialogs with their own
 * title layout or closing buttons (Radix `Dialog.Title`, `Dialog.Close`) render them inside.
 */
export function ModalPanel({
  open,
  onOpenChange,
  className,
  returnFocus,
  focusOnClose,
  children,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  className: string;
  /** Where focus goes on closing when what had it at opening is no longer on the page. */
  returnFocus?: () => HTMLElement | null;
  /**
   * Where focus goes on closing in place of the opener, when what the dialog did is said elsewhere on the
   * page (a whole booking cancelled: its opener is about to go with the booking's card). Read when the
   * dialog has closed, so it may name what that same render put on the page; null leaves it to the opener.
   */
  focusOnClose?: () => HTMLElement | null;
  children: ReactNode;
}) {
  // Radix returns focus to a Dialog.Trigger; these dialogs are opened by ordinary buttons, so focus goes
  // back to whatever had it when the dialog opened (still on the page), instead of to the page's start.
  const opener = useRef<HTMLElement | null>(null);
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-40 bg-black/50" />
        <Dialog.Content
          onOpenAutoFocus={() => {
            opener.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
          }}
          onCloseAutoFocus={(event) => {
            // The opener can be gone by then (e.g. "Cancel some tickets" once one ticket is left): the
            // dialog's owner names a neighbour rather than leave focus at the start of the page.
            const target =
              focusOnClose?.() ?? (opener.current?.isConnected ? opener.current : returnFocus?.());
            if (!target) return;
            event.preventDefault();
            target.focus();
          }}
          className={`fixed left-1/2 top-1/2 z-50 -translate-x-1/2 -translate-y-1/2 rounded-xl bg-white shadow-xl focus:outline-none ${className}`}
        >
          {children}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
