// zod 4 probes whether it may compile parsers with `new Function('')` as soon as an object schema is
// built. Under the app's Content-Security-Policy (no 'unsafe-eval') Chromium refuses the probe and
// reports a CSP violation on every page. Jitless parsing never probes. This classic script runs before
// the app's module scripts, so the setting is in place before zod loads (zod reads this global).
globalThis.__zod_globalConfig = Object.assign(globalThis.__zod_globalConfig || {}, { jitless: true });
