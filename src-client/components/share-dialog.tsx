import { useEffect, useRef, useState } from 'react';
import { eventShareLink } from '../../shared/public-links.ts';
import { whatsappHref } from '../lib/share.ts';
import Modal from './modal.tsx';

/** Share modal: the link, 'Copy Link' (says 'Link copied!' without blocking) and 'Share on WhatsApp'. */
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
  const link = eventShareLink(window.location.origin, eventId);
  const input = useRef<HTMLInputElement>(null);
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), 3_000);
    return () => clearTimeout(timer);
  }, [copied]);

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(link);
    } catch {
      // Clipboard API refused (permissions, insecure origin): fall back to selecting and copying.
      input.current?.select();
      document.execCommand('copy');
    }
    // A toast, not window.alert: an alert blocks the page and must be dismissed (issue 17).
    setCopied(true);
  };

  return (
    <Modal
      open={open}
      onOpenChange={onOpenChange}
      title="Share this event"
      description={title}
      className="w-[calc(100%-1.5rem)] max-w-md p-6"
      headerClassName="flex items-start justify-between gap-4"
    >
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
      <p
        role="status"
        className={
          copied
            ? 'mt-4 rounded-lg bg-gray-900 px-4 py-2.5 text-center text-sm font-semibold text-white'
            : 'sr-only'
        }
      >
        {copied ? 'Link copied!' : ''}
      </p>
    </Modal>
  );
}
