import { index, layout, type RouteConfig, route } from '@react-router/dev/routes';

/**
 * Every page of the web app (specification §2), plus the account flows, form-only endpoints and an
 * item's passages for the chunk view.
 * Parameter rules (appId a uuid, chatroomId a uuid or `new_chat`) are enforced by the default layout's loader.
 */
export default [
  layout('routes/public-layout.tsx', [
    route('login', 'routes/login.tsx'),
    route('register', 'routes/register.tsx'),
    route('forgot-password', 'routes/forgot-password.tsx'),
    route('reset-password', 'routes/reset-password.tsx'),
    route('verify-email', 'routes/verify-email.tsx'),
  ]),
  layout('routes/default-layout.tsx', [
    index('routes/index.tsx'),
    route('settings/models', 'routes/settings.models.tsx'),
    route('settings/integrations', 'routes/settings.integrations.tsx'),
    route('settings/notification-profile', 'routes/settings.notification-profile.tsx'),
    route('settings/account', 'routes/settings.account.tsx'),
    route('applications/:appId', 'routes/application.tsx'),
    route('applications/:appId/knowledge-base', 'routes/knowledge-base.tsx'),
    route('applications/:appId/attention', 'routes/attention.tsx'),
    route('applications/:appId/analytics', 'routes/analytics.tsx'),
    route('applications/:appId/conversations', 'routes/conversations.tsx'),
    route('applications/:appId/api-keys-and-widget', 'routes/api-keys-and-widget.tsx'),
    route('applications/:appId/messages/:chatroomId', 'routes/messages.tsx'),
  ]),
  // Form endpoints without a page of their own.
  route('logout', 'routes/logout.tsx'),
  route('theme', 'routes/theme.tsx'),
  route('applications/create', 'routes/applications.create.tsx'),
  route('applications/:appId/knowledge-base/:itemId/chunks', 'routes/knowledge-chunks.tsx'),
  route('*', 'routes/not-found.tsx'),
] satisfies RouteConfig;
