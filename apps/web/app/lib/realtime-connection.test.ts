import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type WebSocket as ServerSocket, WebSocketServer } from 'ws';
import { subscribeRealtime } from './realtime-connection';

// A loopback server speaking `/api/ws`'s frames; the module reaches it as the page's own origin.
let server: WebSocketServer;
const connected: ServerSocket[] = [];
const open = () => connected.filter((s) => s.readyState === s.OPEN);
const send = (event: string, data: unknown) => {
  for (const s of open()) s.send(JSON.stringify({ event, data }));
};

beforeAll(async () => {
  server = new WebSocketServer({ host: '127.0.0.1', port: 0, path: '/api/ws' });
  await new Promise((resolve) => server.once('listening', resolve));
  server.on('connection', (socket) => {
    connected.push(socket);
    socket.send(JSON.stringify({ event: 'ready', data: { user_id: 1 } }));
  });
  const { port } = server.address() as AddressInfo;
  vi.stubGlobal('window', { location: { protocol: 'http:', host: `127.0.0.1:${port}` } });
});
afterAll(async () => {
  vi.unstubAllGlobals();
  await new Promise((resolve) => server.close(resolve));
});

const listener = () => ({ onEvent: vi.fn(), onReady: vi.fn(), onClose: vi.fn() });

describe("the tab's one socket", () => {
  it('is shared by every subscriber, each hearing its own event, and outlives none of them', async () => {
    const chat = listener();
    const knowledge = listener();
    const stopChat = subscribeRealtime('message', chat);
    const stopKnowledge = subscribeRealtime('kb_updates', knowledge);
    await vi.waitFor(() => expect(knowledge.onReady).toHaveBeenCalledTimes(1));
    expect(chat.onReady).toHaveBeenCalledTimes(1);
    expect(connected).toHaveLength(1);

    send('kb_updates', { application_uuid: 'a' });
    await vi.waitFor(() => expect(knowledge.onEvent).toHaveBeenCalledWith({ application_uuid: 'a' }));
    expect(chat.onEvent).not.toHaveBeenCalled();

    // A page that subscribes later catches up at once, on the same socket.
    const bell = listener();
    const stopBell = subscribeRealtime('notification', bell);
    await vi.waitFor(() => expect(bell.onReady).toHaveBeenCalledTimes(1));
    expect(connected).toHaveLength(1);

    // The link drops: every subscriber hears it, and the one reconnection makes each catch up again.
    connected[0]!.terminate();
    await vi.waitFor(() => expect(chat.onClose).toHaveBeenCalledTimes(1));
    expect(knowledge.onClose).toHaveBeenCalledTimes(1);
    await vi.waitFor(() => expect(bell.onReady).toHaveBeenCalledTimes(2), { timeout: 5000 });
    expect(chat.onReady).toHaveBeenCalledTimes(2);
    expect(connected).toHaveLength(2);

    // A subscriber that left hears nothing more; the socket closes once the last one has left.
    stopChat();
    send('message', { kind: 'created' });
    stopKnowledge();
    stopBell();
    await vi.waitFor(() => expect(open()).toHaveLength(0), { timeout: 5000 });
    expect(chat.onEvent).not.toHaveBeenCalled();
  });
});
