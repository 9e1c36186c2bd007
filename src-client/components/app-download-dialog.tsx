import * as Dialog from '@radix-ui/react-dialog';
import { ModalPanel } from './modal.tsx';
import { AppStoreBadge, GooglePlayBadge } from './store-badges.tsx';

/** The download-our-app modal (spec §1, §2), opened from the footer's store badges. */
export default function AppDownloadDialog({
  open,
  onOpenChange,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  return (
    <ModalPanel
      open={open}
      onOpenChange={onOpenChange}
      className="w-[calc(100%-1.5rem)] max-w-md p-6 text-center"
    >
      <img src="/favicon.svg" alt="" width={56} height={56} className="mx-auto" />
      <Dialog.Title className="mt-3 text-xl font-bold">Download our app</Dialog.Title>
      <Dialog.Description className="mt-2 text-sm text-gray-700">
        Get event alerts for your city, book in a couple of taps and keep your tickets offline with the Jalsa
        app for iPhone and Android.
      </Dialog.Description>
      <div className="mt-5 flex flex-wrap justify-center gap-3">
        <a href="https://apps.apple.com/" target="_blank" rel="noopener noreferrer">
          <AppStoreBadge />
        </a>
        <a href="https://play.google.com/store/apps" target="_blank" rel="noopener noreferrer">
          <GooglePlayBadge />
        </a>
      </div>
      <Dialog.Close className="mt-6 rounded-md border border-gray-300 px-4 py-2 text-sm font-semibold text-gray-800 hover:bg-gray-50">
        Close
      </Dialog.Close>
    </ModalPanel>
  );
}
