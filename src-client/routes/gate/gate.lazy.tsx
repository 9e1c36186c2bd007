import { createLazyRoute } from '@tanstack/react-router';
import { useEffect, useState } from 'react';
import { GateSetup } from '../../components/gate/gate-setup.tsx';
import { ScanScreen } from '../../components/gate/scan-screen.tsx';
import type { GateSettings } from '../../gate/gate-settings.ts';
import { installGateApp } from '../../gate/install.ts';

export const Route = createLazyRoute('/_gate/gate')({ component: GatePage });

/** The gate: set up the event, slot and gate name, then scan until staff change them. */
function GatePage() {
  const [settings, setSettings] = useState<GateSettings | null>(null);
  useEffect(() => {
    installGateApp().catch((error: unknown) => {
      // Without a service worker the gate still works online and while the page stays open.
      console.warn('The gate could not install its offline copy', error);
    });
  }, []);
  if (settings) return <ScanScreen settings={settings} onChange={() => setSettings(null)} />;
  return <GateSetup onStart={setSettings} />;
}
