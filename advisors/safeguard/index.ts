export { safeguardAdvisor, type SafeguardAdvisorOptions } from './safeguard-advisor.ts';
