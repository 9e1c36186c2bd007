/**
 * Whether a Node.js version satisfies package.json's `engines.node`, written as caret ranges joined by
 * `||` ("^22.12.0 || ^24.0.0 || ^26.0.0"): same major, and at least the stated minor and patch.
 */
export function satisfiesEngines(version: string, range: string): boolean {
  const [major, minor, patch] = parts(version);
  return range
    .split('||')
    .map((alternative) => /^\^(\d+)\.(\d+)\.(\d+)$/.exec(alternative.trim()))
    .some((caret) => {
      if (!caret) return false;
      const [, wantMajor, wantMinor, wantPatch] = caret.map(Number);
      if (major !== wantMajor) return false;
      return minor! > wantMinor! || (minor === wantMinor && patch! >= wantPatch!);
    });
}

/** The refusal an entry point prints on an unsupported Node, or null when this one will do. */
export function unsupportedNodeMessage(version: string, range: string): string | null {
  if (satisfiesEngines(version, range)) return null;
  return [
    `Jalsa needs Node.js ${range.replaceAll('^', '').replaceAll(' || ', ', ')} (or a later release of one of those lines); this is ${version}.`,
    'Install the pinned version into .node/ without touching the system one:',
    '  export PATH="$(bash scripts/install-node.sh)/bin:$PATH"',
  ].join('\n');
}

function parts(version: string): number[] {
  return version.replace(/^v/, '').split('.').map(Number);
}
