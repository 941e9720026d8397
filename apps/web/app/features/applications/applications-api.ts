import type { TApplication } from '@cairn/contracts/applications';
import { request } from '../chat/chat-api';

/** Managing an application from the browser: rename, duplicate, delete (the API's own endpoints). */
export const applicationsApi = {
  rename: (appId: string, name: string) =>
    request<TApplication>('PATCH', `/api/applications/${appId}/`, { name }),
  duplicate: (appId: string, name: string) =>
    request<TApplication>('POST', `/api/applications/${appId}/duplicate/`, { name }),
  remove: (appId: string) => request<null>('DELETE', `/api/applications/${appId}/`),
};
