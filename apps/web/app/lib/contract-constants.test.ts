import * as apiKeys from '@cairn/contracts/api-keys';
import * as applications from '@cairn/contracts/applications';
import * as chat from '@cairn/contracts/chat';
import * as knowledge from '@cairn/contracts/knowledge';
import * as providers from '@cairn/contracts/model-providers';
import * as webhooks from '@cairn/contracts/webhooks';
import * as widget from '@cairn/contracts/widget';
import { describe, expect, it } from 'vitest';
import * as copies from './contract-constants';

describe('contract constants copied for the browser', () => {
  it('equal their originals', () => {
    expect(copies.ASSISTANT_SENDER).toBe(chat.ASSISTANT_SENDER);
    expect(copies.MESSAGE_MAX).toBe(chat.MESSAGE_MAX);
    expect(copies.VISITOR_SENDER_PREFIX).toBe(widget.VISITOR_SENDER_PREFIX);
    expect(copies.KNOWLEDGE_FILE_ACCEPT).toBe(knowledge.KNOWLEDGE_FILE_ACCEPT);
    expect(copies.KNOWLEDGE_LIMITS).toEqual(knowledge.KNOWLEDGE_LIMITS);
    expect(copies.PROVIDER_KIND_LABELS).toEqual(providers.PROVIDER_KIND_LABELS);
    expect(copies.STRICTNESS_LEVELS).toEqual(applications.STRICTNESS_LEVELS);
    expect(copies.INSTRUCTIONS_MAX).toBe(applications.INSTRUCTIONS_MAX);
    expect(copies.NO_ANSWER_MESSAGE_MAX).toBe(applications.NO_ANSWER_MESSAGE_MAX);
    expect(copies.TEMPERATURE_MIN).toBe(applications.TEMPERATURE_MIN);
    expect(copies.TEMPERATURE_MAX).toBe(applications.TEMPERATURE_MAX);
    expect(copies.RETENTION_DAYS_MIN).toBe(applications.RETENTION_DAYS_MIN);
    expect(copies.RETENTION_DAYS_MAX).toBe(applications.RETENTION_DAYS_MAX);
    expect(copies.PROVIDER_KIND_VALUES).toEqual(providers.PROVIDER_KIND_VALUES);
    expect(copies.senderIdentifierOf(42)).toBe(chat.senderIdentifierOf(42));
    expect(copies.API_KEY_PREFIX).toBe(apiKeys.API_KEY_PREFIX);
    expect(copies.API_KEY_RPM_DEFAULT).toBe(apiKeys.API_KEY_RPM_DEFAULT);
    expect(copies.API_KEYS_MAX).toBe(apiKeys.API_KEYS_MAX);
    expect(copies.WEBHOOKS_MAX).toBe(webhooks.WEBHOOKS_MAX);
  });
});
