/*! Clickwrap web SDK 1.0.0 | Apache-2.0
 * ES module entry: `import { ClickwrapClient, ClickwrapDom } from '<server>/sdk/v1/clickwrap.mjs'`.
 * It loads clickwrap.js next to it (which also defines the globals) and re-exports both objects.
 */
import './clickwrap.js';

const sdk = globalThis;
sdk.ClickwrapClient._moduleUrl(import.meta.url);

export const ClickwrapClient = sdk.ClickwrapClient;
export const ClickwrapDom = sdk.ClickwrapDom;
export default ClickwrapClient;
