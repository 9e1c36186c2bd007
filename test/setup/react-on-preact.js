// The client's tests import `act` from 'react' as React 19 exports it; on the Preact renderer the client
// ships with (docs/decisions/0044-preact-compat.md) it lives in preact/test-utils. Everything else is
// preact/compat, the module the client's build answers 'react' with. JavaScript rather than TypeScript:
// preact/compat's types are one `export =` namespace, which `export *` cannot re-export.
export * from 'preact/compat';
export { default } from 'preact/compat';
export { act } from 'preact/test-utils';
