import { useState } from 'react';

/**
 * A month to choose and the two downloads of that month's GST documents under `base`: the monthly CSV
 * and GSTR-1 (a ZIP of the GST offline tool's tables). The organiser's profile page and the admin's
 * platform invoices use it with their own routes.
 */
export function InvoiceMonthDownloads({ base }: { base: '/api/invoices' | '/api/invoices/platform' }) {
  const now = new Date();
  const [month, setMonth] = useState(`${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, '0')}`);
  return (
    <div className="mt-3 flex flex-wrap items-end gap-3">
      <label className="text-sm">
        <span className="block text-xs font-medium uppercase tracking-wide text-gray-500">Month</span>
        <input
          type="month"
          value={month}
          onChange={(e) => setMonth(e.target.value)}
          className="mt-1 rounded-md border border-gray-300 px-3 py-2"
        />
      </label>
      <a
        href={`${base}/month/${month}.csv`}
        className="rounded-md bg-brand-600 px-4 py-2 text-sm font-semibold text-white"
        download
      >
        Download CSV
      </a>
      <a
        href={`${base}/gstr1/${month}.zip`}
        className="rounded-md border border-brand-600 px-4 py-2 text-sm font-semibold text-brand-700"
        download
      >
        Download GSTR-1 (ZIP)
      </a>
    </div>
  );
}
