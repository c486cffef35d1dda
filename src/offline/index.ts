/**
 * The offline stand-in model and the demo's model resolution.
 *
 * @module ai-advisors/offline
 */
export { createOfflineModel, OFFLINE_MODEL_LABEL, type OfflineModelOptions } from './create-offline-model.ts';
export { resolveDemoModel, type DemoModel, type ResolveDemoModelOptions } from './resolve-demo-model.ts';
export { createTextModel, type CreateTextModelOptions } from '../model/create-text-model.ts';
