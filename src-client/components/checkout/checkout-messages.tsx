import { Link } from '@tanstack/react-router';
import type { RefObject } from 'react';
import { ResendVerification } from '../resend-verification.tsx';
import type { Banner } from './checkout-banner.ts';
import { PaymentErrorBanner } from './payment-error-banner.tsx';

/** The banner beside Proceed, with the step the buyer can take where there is one. */
export function CheckoutMessages({
  banner,
  bannerBox,
  eventId,
  onDismiss,
}: {
  banner: Banner | null;
  bannerBox: RefObject<HTMLDivElement | null>;
  eventId: string;
  onDismiss: () => void;
}) {
  // Mounted from the start so that what appears in it is announced; beside Proceed, where the buyer is.
  return (
    <div aria-live="assertive" aria-atomic="true" data-testid="checkout-messages">
      {banner && (
        <PaymentErrorBanner
          ref={bannerBox}
          message={banner.message}
          items={banner.items}
          tone={banner.tone}
          onDismiss={onDismiss}
          action={
            banner.verify ? (
              <ResendVerification
                label="Resend verification e-mail"
                sentText="We've sent you a new verification email. Open its link, then press Proceed again."
                className="mt-2 font-semibold underline"
              />
            ) : banner.waitingRoom ? (
              <Link
                to="/events/$eventId/waiting-room"
                params={{ eventId }}
                className="mt-2 inline-block font-semibold underline"
              >
                Go to the waiting room
              </Link>
            ) : undefined
          }
        />
      )}
    </div>
  );
}
