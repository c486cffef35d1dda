import { describe, expect, it } from 'vitest';
import { redactHeaders, redactSecrets } from '../../src/index.ts';

describe('redactSecrets', () => {
  it.each([
    ['Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.payload.sig', 'eyJhbGciOiJIUzI1NiJ9'],
    ['key sk-proj-AbCdEf1234567890', 'sk-proj-AbCdEf1234567890'],
    ['https://user:hunter22@db.example.com/test', 'hunter22'],
    ['{"api_key": "qdrant-secret-123"}', 'qdrant-secret-123'],
    ['password=letmein!', 'letmein!'],
  ])('removes the credential from %s', (text, secret) => {
    expect(redactSecrets(text)).not.toContain(secret);
    expect(redactSecrets(text)).toContain('[REDACTED]');
  });

  it('leaves ordinary text alone', () => {
    expect(redactSecrets('Marie Curie was born in 1867 in Warsaw.')).toBe('Marie Curie was born in 1867 in Warsaw.');
  });

  it('masks credential headers whatever their case', () => {
    expect(redactHeaders({ authorization: 'Bearer x', 'X-Api-Key': 'k', accept: 'json' })).toEqual({
      authorization: '[REDACTED]',
      'X-Api-Key': '[REDACTED]',
      accept: 'json',
    });
  });
});
