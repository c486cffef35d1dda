export { isSecretName } from './is-secret-name.ts';
export { redactError, type RedactErrorOptions } from './redact-error.ts';
export { REDACTED, redactHeaders, redactSecrets } from './redact-secrets.ts';
export { redactValue, type JsonValue, type RedactValueOptions } from './redact-value.ts';
export { redactedErrorView } from './redacted-error-view.ts';
