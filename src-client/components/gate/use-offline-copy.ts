import { useEffect, useState } from 'react';
import { installGateApp } from '../../gate/install.ts';

/** Whether this device holds the gate's offline copy (its service worker), for the network badge. */
export function useOfflineCopy() {
  const [offlineCopy, setOfflineCopy] = useState<'pending' | 'ready' | 'none'>('pending');
  useEffect(() => {
    installGateApp().then(
      (ok) => setOfflineCopy(ok ? 'ready' : 'none'),
      () => setOfflineCopy('none'),
    );
  }, []);
  return offlineCopy;
}
