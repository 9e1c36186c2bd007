import { Link, type LinkProps } from '@tanstack/react-router';
import { lazy, Suspense, useState } from 'react';
import { POPULAR_CITIES } from '../../shared/cities.ts';
import { LineIcon } from './line-icon.tsx';
import { AppStoreBadge, GooglePlayBadge } from './store-badges.tsx';

const AppDownloadDialog = lazy(() => import('./app-download-dialog.tsx'));

const SOCIAL = [
  {
    name: 'Instagram',
    href: 'https://www.instagram.com/',
    path: 'M7 3h10a4 4 0 0 1 4 4v10a4 4 0 0 1-4 4H7a4 4 0 0 1-4-4V7a4 4 0 0 1 4-4zm5 5a4 4 0 1 0 0 8 4 4 0 0 0 0-8zm5.5-1.5h.01',
  },
  { name: 'X', href: 'https://x.com/', path: 'M4 4l16 16M20 4L4 20' },
  {
    name: 'Facebook',
    href: 'https://www.facebook.com/',
    path: 'M14 8h3V4h-3a4 4 0 0 0-4 4v2H8v4h2v6h4v-6h3l1-4h-4V8z',
  },
  {
    name: 'YouTube',
    href: 'https://www.youtube.com/',
    path: 'M3 8a3 3 0 0 1 3-3h12a3 3 0 0 1 3 3v8a3 3 0 0 1-3 3H6a3 3 0 0 1-3-3V8zm7 1v6l5-3-5-3z',
  },
];

const COMPANY_LINKS = [
  { to: '/explore', label: 'Events' },
  // The organiser console, or for someone not yet an organiser the request form (routes/console/organiser.lazy.tsx).
  { to: '/organiser', label: 'List your Event' },
  { to: '/Contact_Us', label: 'Our Team' },
  { to: '/Contact_Us', label: 'Careers' },
  { to: '/Contact_Us', label: 'Contact us' },
] as const;

const RESOURCE_LINKS = [
  { to: '/privacy-policy', label: 'Privacy Policy' },
  { to: '/Terms & Conditions', label: 'Terms & Conditions' },
  { to: '/Contact_Us', label: 'Customer Support' },
  { to: '/Terms & Conditions', hash: 'refunds', label: 'Purchase & Refund' },
] as const;

const headingClass = 'mb-3 font-bold uppercase tracking-wide text-white';

/** Footer (spec §2): listings text, company and resource links, store badges, social links, copyright. */
export function Footer() {
  const [appDialogOpen, setAppDialogOpen] = useState(false);
  const cities = POPULAR_CITIES.map((c) => c.name);
  return (
    <footer className="bg-gray-900 text-sm text-gray-300">
      <div className="mx-auto max-w-7xl px-4 py-10">
        <p className="max-w-4xl leading-relaxed text-gray-400">
          Jalsa lists live concerts, stand-up comedy, theatre and shows, sports matches and hands-on workshops
          in {cities.slice(0, -1).join(', ')} and {cities.at(-1)}, and in over sixty more Indian cities. Pick
          your city to see what is happening near you this week, browse by category or date, and book in
          rupees with instant e-tickets.
        </p>
        <div className="mt-8 grid gap-8 sm:grid-cols-2 lg:grid-cols-4">
          <FooterLinks id="footer-company" title="Company" links={COMPANY_LINKS} />
          <FooterLinks id="footer-resources" title="Resources" links={RESOURCE_LINKS} />
          <section aria-labelledby="footer-app">
            <h2 id="footer-app" className={headingClass}>
              Get the app
            </h2>
            <div className="flex flex-wrap gap-3">
              <button type="button" onClick={() => setAppDialogOpen(true)}>
                <AppStoreBadge />
              </button>
              <button type="button" onClick={() => setAppDialogOpen(true)}>
                <GooglePlayBadge />
              </button>
            </div>
          </section>
          <section aria-labelledby="footer-social">
            <h2 id="footer-social" className={headingClass}>
              Follow us
            </h2>
            <ul className="flex gap-3">
              {SOCIAL.map((s) => (
                <li key={s.name}>
                  <a
                    href={s.href}
                    target="_blank"
                    rel="noopener noreferrer"
                    aria-label={s.name}
                    className="flex h-10 w-10 items-center justify-center rounded-full bg-gray-800 text-gray-200 hover:bg-brand-600 hover:text-white"
                  >
                    <LineIcon size={20} strokeLinecap="round" strokeLinejoin="round">
                      <path d={s.path} />
                    </LineIcon>
                  </a>
                </li>
              ))}
            </ul>
          </section>
        </div>
        <p className="mt-10 border-t border-gray-800 pt-6 text-gray-400">
          © {new Date().getFullYear()} Jalsa. All rights reserved.
        </p>
      </div>
      {appDialogOpen && (
        <Suspense fallback={null}>
          <AppDownloadDialog open onOpenChange={setAppDialogOpen} />
        </Suspense>
      )}
    </footer>
  );
}

function FooterLinks({
  id,
  title,
  links,
}: {
  id: string;
  title: string;
  links: ReadonlyArray<{ to: LinkProps['to']; hash?: string; label: string }>;
}) {
  return (
    <nav aria-labelledby={id}>
      <h2 id={id} className={headingClass}>
        {title}
      </h2>
      <ul className="space-y-2">
        {links.map((link) => (
          <li key={link.label}>
            <Link to={link.to} hash={link.hash} className="text-gray-300 hover:text-white hover:underline">
              {link.label}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}
