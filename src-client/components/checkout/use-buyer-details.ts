import { useEffect, useRef, useState } from 'react';
import type { TicketDetails } from '../../../shared/checkout-schemas.ts';
import { isIndianState } from '../../../shared/states.ts';
import type { useCurrentUser } from '../../lib/auth.ts';

const DETAILS_KEY = 'jalsa.checkout.details';

export type BuyerDetails = Record<keyof TicketDetails, string>;

/**
 * The buyer's details as typed: they survive a reload of the checkout (session storage, this tab only), and
 * what the profile knows fills the fields the buyer left empty.
 */
export function useBuyerDetails(me: ReturnType<typeof useCurrentUser>) {
  const [details, setDetails] = useState<BuyerDetails>(() => {
    const empty = {
      name: '',
      email: '',
      phone: '',
      state: '',
      buyerGstin: '',
      buyerLegalName: '',
      buyerAddress: '',
    };
    try {
      const stored = JSON.parse(sessionStorage.getItem(DETAILS_KEY) ?? 'null') as Partial<
        typeof empty
      > | null;
      return { ...empty, ...stored };
    } catch {
      return empty;
    }
  });
  useEffect(() => {
    sessionStorage.setItem(DETAILS_KEY, JSON.stringify(details));
  }, [details]);

  // Prefill from the profile once it has loaded, without overwriting what the buyer already typed.
  const prefilled = useRef(false);
  useEffect(() => {
    if (prefilled.current || !me.data) return;
    prefilled.current = true;
    setDetails((d) => ({
      ...d,
      name: d.name || me.data?.name || '',
      email: d.email || me.data?.email || '',
      phone: d.phone || me.data?.phone || '',
      state: d.state || (me.data?.state && isIndianState(me.data.state) ? me.data.state : ''),
    }));
  }, [me.data]);

  return [details, setDetails] as const;
}
