import { useEffect, useMemo, useRef, useState } from 'react';
import { type City, OTHER_CITIES, POPULAR_CITIES, searchCities } from '../../shared/cities.ts';
import { saveSelectedCity } from '../lib/city-storage.ts';
import { AUTO_SELECT_DELAY_MS, detectCity } from '../lib/detect-city.ts';
import { useRenderInSteps } from '../lib/yield-to-main.ts';
import { LineIcon } from './line-icon.tsx';
import Modal from './modal.tsx';

type Notice = { tone: 'success' | 'error'; text: string } | null;

/** 'Select Your City' (spec §2, §4): search by name or alias, location detection, popular and more cities. */
export default function CityPicker({
  open,
  onOpenChange,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const [query, setQuery] = useState('');
  const [detecting, setDetecting] = useState(false);
  const [notice, setNotice] = useState<Notice>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);

  const searching = query.trim().length > 0;
  const popular = useMemo(() => searchCities(query, POPULAR_CITIES), [query]);
  const others = useMemo(() => searchCities(query, OTHER_CITIES), [query]);
  // The 70 'More Cities' come in the task after the dialog (below the popular tiles, and scrolled to):
  // the dialog's first render, opened by itself on a first visit, stays a short task on a slow phone.
  const othersShown = useRenderInSteps(others.length, 0, others.length);

  const choose = (name: string) => {
    clearTimeout(timer.current);
    saveSelectedCity(name);
    setNotice(null);
    setQuery('');
    onOpenChange(false);
  };

  const detect = async () => {
    clearTimeout(timer.current);
    setNotice(null);
    setDetecting(true);
    const result = await detectCity(typeof navigator === 'undefined' ? undefined : navigator.geolocation);
    setDetecting(false);
    if (result.kind === 'matched') {
      setNotice({ tone: 'success', text: result.message });
      timer.current = setTimeout(() => choose(result.city.name), AUTO_SELECT_DELAY_MS);
    } else {
      setNotice({ tone: 'error', text: result.message });
    }
  };

  return (
    <Modal
      open={open}
      onOpenChange={onOpenChange}
      title="Select Your City"
      description="Search for your city, detect your location, or pick one of the cities below."
      descriptionHidden
      className="flex h-[500px] max-h-[90vh] w-[calc(100%-1.5rem)] max-w-[640px] flex-col"
      headerClassName="flex items-center justify-between border-b border-gray-200 px-5 py-4"
    >
      <div className="space-y-3 px-5 pt-4">
        <form
          onSubmit={(e) => {
            e.preventDefault();
            const first = [...popular, ...others][0];
            // Spec §4: a name that matches no listed city is saved as typed.
            if (searching) choose(first?.name ?? query);
          }}
        >
          <input
            type="search"
            value={query}
            onChange={(e) => setQuery(e.target.value)}
            placeholder="Search for your city..."
            aria-label="Search for your city..."
            className="w-full rounded-lg border border-gray-300 px-4 py-2.5 focus:border-brand-500 focus:outline-none focus:ring-2 focus:ring-brand-100"
          />
        </form>
        <button
          type="button"
          onClick={detect}
          disabled={detecting}
          className="inline-flex items-center gap-2 text-sm font-semibold text-brand-700 hover:underline disabled:opacity-60"
        >
          <LineIcon size={18}>
            <circle cx="12" cy="12" r="3" />
            <path d="M12 2v3M12 19v3M2 12h3M19 12h3" />
            <circle cx="12" cy="12" r="7" />
          </LineIcon>
          {detecting ? 'Detecting your location...' : 'Detect my location'}
        </button>
        <p
          role="status"
          className={
            notice
              ? `rounded-md px-3 py-2 text-sm ${notice.tone === 'success' ? 'bg-green-50 text-green-800' : 'bg-red-50 text-red-800'}`
              : 'sr-only'
          }
        >
          {notice?.text}
        </p>
      </div>
      <div className="mt-2 flex-1 overflow-y-auto px-5 pb-5">
        {searching && popular.length === 0 && others.length === 0 ? (
          <div className="py-8 text-center">
            <p className="font-semibold text-gray-800">No cities found matching "{query.trim()}"</p>
            <p className="mt-1 text-sm text-gray-600">
              Try a different search term or use location detection
            </p>
          </div>
        ) : (
          <>
            {popular.length > 0 && (
              <section aria-labelledby="popular-cities">
                <h3
                  id="popular-cities"
                  className="mb-2 mt-2 text-sm font-bold uppercase tracking-wide text-gray-600"
                >
                  Popular Cities
                </h3>
                <ul className="grid grid-cols-3 gap-2 sm:grid-cols-5">
                  {popular.map((city) => (
                    <li key={city.name}>
                      <PopularTile city={city} onChoose={choose} />
                    </li>
                  ))}
                </ul>
              </section>
            )}
            {othersShown > 0 && (
              <section aria-labelledby="more-cities" className="mt-4">
                <h3 id="more-cities" className="mb-2 text-sm font-bold uppercase tracking-wide text-gray-600">
                  More Cities
                </h3>
                <ul className="grid grid-cols-2 gap-x-3 sm:grid-cols-3">
                  {others.slice(0, othersShown).map((city) => (
                    <li key={city.name}>
                      <button
                        type="button"
                        onClick={() => choose(city.name)}
                        className="w-full rounded-md px-2 py-1.5 text-left text-sm text-gray-800 hover:bg-brand-50 hover:text-brand-700"
                      >
                        {city.name}
                      </button>
                    </li>
                  ))}
                </ul>
              </section>
            )}
          </>
        )}
      </div>
    </Modal>
  );
}

function PopularTile({ city, onChoose }: { city: City; onChoose: (name: string) => void }) {
  return (
    <button
      type="button"
      onClick={() => onChoose(city.name)}
      className="flex w-full flex-col items-center gap-1 rounded-lg border border-gray-200 px-1 py-3 text-xs font-semibold text-gray-800 hover:border-brand-500 hover:bg-brand-50"
    >
      {city.icon && <img src={city.icon} alt="" width={40} height={40} />}
      {city.name}
    </button>
  );
}
