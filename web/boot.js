// Loads the app's WebAssembly. Kept as a file (not inline) so the page's
// Content-Security-Policy can say script-src 'self'.
import init from './figeval-web.js';

init({ module_or_path: new URL('./figeval-web_bg.wasm', import.meta.url) });
