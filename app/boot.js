// Starts the editor. A file rather than Trunk's inline script, so the desktop app's
// Content-Security-Policy can forbid inline scripts altogether.
import init from './app.js';

await init({ module_or_path: new URL('./app_bg.wasm', import.meta.url) });
