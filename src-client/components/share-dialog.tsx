import * as Dialog from '@radix-ui/react-dialog';
import { useRef } from 'react';
import { shareLink, whatsappHref } from '../lib/share.ts';

/** Share modal: the link, 'Copy Link' (alerts 'Link copied!') and 'Share on WhatsApp'. */
export default function ShareDialog({
  open,
  onOpenChange,
  eventId,
  title,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  eventId: string;
  title: string;
}) {
  const link = shareLink(window.location.origin, eventId);
  const input = useRef<HTMLInputElement>(null);

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(link);
    } catch {
      // Clipboard API refused (permissions, insecure origin): fall back to selecting and copying.
      input.current?.select();
      document.execCommand('copy');
    }
    window.alert('Link copied!');
  };

  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-40 bg-black/50" />
        <Dialog.Content className="fixed left-1/2 top-1/2 z-50 w-[calc(100%-1.5rem)] max-w-md -translate-x-1/2 -translate-y-1/2 rounded-xl bg-white p-6 shadow-xl focus:outline-none">
          <div className="flex items-start justify-between gap-4">
            <Dialog.Title className="text-lg font-bold">Share this event</Dialog.Title>
            <Dialog.Close className="rounded-md p-1 text-gray-600 hover:bg-gray-100" aria-label="Close">
              <svg
                viewBox="0 0 24 24"
                width="22"
                height="22"
                aria-hidden="true"
                fill="none"
                stroke="currentColor"
                strokeWidth="2"
              >
                <path d="M6 6l12 12M18 6L6 18" />
              </svg>
            </Dialog.Close>
          </div>
          <Dialog.Description className="mt-1 text-sm text-gray-700">{title}</Dialog.Description>
          <label className="mt-4 block text-sm font-semibold text-gray-800">
            Event link
            <input
              ref={input}
              readOnly
              value={link}
              onFocus={(e) => e.currentTarget.select()}
              className="mt-1 w-full rounded-lg border border-gray-300 bg-gray-50 px-3 py-2 text-sm font-normal"
            />
          </label>
          <div className="mt-4 flex flex-col gap-3 sm:flex-row">
            <button
              type="button"
              onClick={copy}
              className="flex-1 rounded-lg bg-brand-600 px-4 py-2.5 font-semibold text-white hover:bg-brand-700"
            >
              Copy Link
            </button>
            <a
              href={whatsappHref(title, link)}
              target="_blank"
              rel="noopener noreferrer"
              className="flex-1 rounded-lg bg-green-700 px-4 py-2.5 text-center font-semibold text-white hover:bg-green-800"
            >
              Share on WhatsApp
            </a>
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
