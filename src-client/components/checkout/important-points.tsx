/** What every buyer should know before paying: where the tickets appear and what the gate checks. */
export function ImportantPoints() {
  return (
    <section
      aria-labelledby="important-heading"
      className="rounded-xl border border-amber-200 bg-amber-50 p-4"
    >
      <h2 id="important-heading" className="font-bold">
        Important Points
      </h2>
      <ul className="mt-2 list-disc space-y-1 pl-5 text-sm text-gray-800">
        <li>
          Your tickets will appear in the My Bookings section of your profile once the payment succeeds.
        </li>
        <li>Bring a valid government ID to the venue; it is checked together with your ticket.</li>
        <li>Show the QR code on your ticket at the entry.</li>
      </ul>
    </section>
  );
}
