import type { FastifyInstance } from 'fastify';

/**
 * Waits until the app has delivered the durable product events (webhooks, notifications, analytics)
 * of what a test did so far: they run after the response, off the request (decision 085).
 */
export function productEventsSettled(app: Pick<FastifyInstance, 'events'>): Promise<void> {
  return app.events.settled();
}
