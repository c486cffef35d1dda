export { redactHeaders, redactSecrets } from './redact-secrets.ts';
