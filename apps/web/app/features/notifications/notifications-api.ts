import type {
  TNotificationList,
  TNotificationProfile,
  TNotificationProfileInput,
  TPushConfig,
} from '@cairn/contracts/notifications';
import { request } from '../chat/chat-api';

/** Notification calls from the browser, to the API on the same origin (cookie-authenticated). */
export const notificationsApi = {
  list: () => request<TNotificationList>('GET', '/api/notifications/'),
  markRead: (which: { uuids: string[] } | { all: true }) =>
    request<{ unread_count: number }>('POST', '/api/notifications/read/', which),
  saveProfile: (profile: TNotificationProfileInput) =>
    request<TNotificationProfile>('PUT', '/api/notification-profile/', profile),
  sendTest: (channel: 'email' | 'in_app' | 'push' | 'slack') =>
    request<{ channel: string; sent_to: string }>('POST', '/api/notifications/test/', { channel }),
  subscribePush: (subscription: PushSubscriptionJSON) =>
    request<TPushConfig>('POST', '/api/notifications/push/subscriptions/', subscription),
  unsubscribePush: (endpoint: string) =>
    request<TPushConfig>('POST', '/api/notifications/push/subscriptions/remove/', { endpoint }),
};
