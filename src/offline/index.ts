/**
 * The offline stand-in model, the offline judge and the demo's model resolution.
 *
 * @module ai-advisors/offline
 */
export { createOfflineModel, OFFLINE_MODEL_LABEL, type OfflineModelOptions } from './create-offline-model.ts';
export { createOfflineJudgeModel, type OfflineJudgeModelOptions } from './create-offline-judge-model.ts';
export { resolveDemoModel, type DemoModel, type ResolveDemoModelOptions } from './resolve-demo-model.ts';
export { createTextModel, type CreateTextModelOptions } from '../model/create-text-model.ts';
