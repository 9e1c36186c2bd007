/** Spec §2: shown while the server verifies the payment. */
export function ConfirmingOverlay() {
  return (
    <Overlay labelledBy="confirming-title">
      <div
        aria-hidden="true"
        className="mx-auto h-10 w-10 animate-spin rounded-full border-4 border-brand-100 border-t-brand-600"
      />
      <h2 id="confirming-title" className="mt-4 text-xl font-bold">
        Confirming Your Payment
      </h2>
      <p className="mt-2 text-gray-600">Please don't press back or close this window</p>
    </Overlay>
  );
}

/** Spec §2: shown once the booking exists, before the redirect to My Bookings. */
export function SuccessOverlay({ bookingId }: { bookingId: string }) {
  return (
    <Overlay labelledBy="success-title">
      <div
        aria-hidden="true"
        className="mx-auto flex h-12 w-12 items-center justify-center rounded-full bg-green-100 text-2xl text-green-700"
      >
        ✓
      </div>
      <h2 id="success-title" className="mt-4 text-xl font-bold">
        Payment Successful!
      </h2>
      <p className="mt-2 text-gray-700">Your booking has been confirmed</p>
      <p className="mt-3 text-sm text-gray-600">
        Booking ID:{' '}
        <span className="font-mono font-semibold text-gray-900" data-testid="booking-id">
          {bookingId}
        </span>
      </p>
      <p className="mt-3 text-sm text-gray-600">Redirecting to your ticket...</p>
    </Overlay>
  );
}

function Overlay({ labelledBy, children }: { labelledBy: string; children: React.ReactNode }) {
  return (
    <div className="fixed inset-0 z-50 flex items-center justify-center bg-black/60 px-4">
      <div
        role="alertdialog"
        aria-modal="true"
        aria-labelledby={labelledBy}
        aria-live="assertive"
        className="w-full max-w-sm rounded-xl bg-white p-6 text-center shadow-xl"
      >
        {children}
      </div>
    </div>
  );
}
