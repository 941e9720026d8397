import { APICallError } from '@ai-sdk/provider';
import { describe, expect, it } from 'vitest';
import { retryDelayMs } from './provider-retry.ts';

const refused = (headers: Record<string, string> | undefined) =>
  new APICallError({
    message: 'Slow down',
    url: 'http://127.0.0.1:1/v1/chat/completions',
    requestBodyValues: {},
    statusCode: 429,
    responseHeaders: headers,
  });

describe('retryDelayMs', () => {
  it('waits what the provider asks for, in milliseconds, seconds or as a date', () => {
    expect(retryDelayMs(refused({ 'retry-after-ms': '250' }), 2000)).toBe(250);
    expect(retryDelayMs(refused({ 'retry-after': '3' }), 2000)).toBe(3000);
    // retry-after-ms is the more precise of the two.
    expect(retryDelayMs(refused({ 'retry-after-ms': '40', 'retry-after': '3' }), 2000)).toBe(40);
    const date = retryDelayMs(refused({ 'retry-after': new Date(Date.now() + 10_000).toUTCString() }), 2000);
    expect(date).toBeGreaterThan(8_000);
    expect(date).toBeLessThanOrEqual(10_000);
  });

  it('keeps the backoff when nothing reasonable is asked for', () => {
    expect(retryDelayMs(refused(undefined), 2000)).toBe(2000);
    expect(retryDelayMs(refused({}), 4000)).toBe(4000);
    expect(retryDelayMs(refused({ 'retry-after': 'soon' }), 2000)).toBe(2000);
    expect(retryDelayMs(refused({ 'retry-after-ms': '-5' }), 2000)).toBe(2000);
    // An hour is no wait to hold an answer for.
    expect(retryDelayMs(refused({ 'retry-after': '3600' }), 2000)).toBe(2000);
    expect(retryDelayMs(new Error('socket hang up'), 2000)).toBe(2000);
  });
});
