import { SELLING_COSTS } from '../../../shared/selling-costs.ts';

/** "What selling costs" on the organiser's onboarding path: who keeps the fee, what is paid to them. */
export function SellingCosts() {
  return (
    <section
      aria-labelledby="selling-costs-heading"
      className="rounded-2xl border border-gray-200 p-5 sm:p-6"
    >
      <h2 id="selling-costs-heading" className="text-xl font-bold">
        What selling costs
      </h2>
      <ul className="mt-2 list-disc space-y-1 pl-5 text-sm text-gray-700">
        {SELLING_COSTS.map((line) => (
          <li key={line}>{line}</li>
        ))}
      </ul>
    </section>
  );
}
