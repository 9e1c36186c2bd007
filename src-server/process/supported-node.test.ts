import { describe, expect, it } from 'vitest';
import { satisfiesEngines, unsupportedNodeMessage } from './supported-node.ts';

const ENGINES = '^22.12.0 || ^24.0.0 || ^26.0.0';

describe('the supported Node.js lines', () => {
  it('accepts each line from its stated minimum', () => {
    for (const version of ['22.12.0', '22.23.3', 'v24.0.0', '24.21.0', '26.10.0']) {
      expect(satisfiesEngines(version, ENGINES), version).toBe(true);
    }
  });

  it('refuses older releases of a line, other lines and nonsense', () => {
    for (const version of ['20.20.2', '22.11.9', '21.7.0', '23.1.0', '25.0.0', '27.0.0', 'x']) {
      expect(satisfiesEngines(version, ENGINES), version).toBe(false);
    }
  });

  it('says which versions will do and how to get one', () => {
    expect(unsupportedNodeMessage('26.10.0', ENGINES)).toBeNull();
    const message = unsupportedNodeMessage('20.20.2', ENGINES)!;
    expect(message).toContain('Jalsa needs Node.js 22.12.0, 24.0.0, 26.0.0');
    expect(message).toContain('this is 20.20.2');
    expect(message).toContain('scripts/install-node.sh');
  });
});
