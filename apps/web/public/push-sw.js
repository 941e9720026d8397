// Cairn's service worker: only shows Web Push notifications and opens their link on click.
// Served from the site root so its scope covers every page; it caches nothing.

self.addEventListener('push', (event) => {
  let data = {};
  try {
    data = event.data ? event.data.json() : {};
  } catch {
    data = { title: 'Cairn', body: event.data ? event.data.text() : '' };
  }
  event.waitUntil(
    self.registration.showNotification(data.title || 'Cairn', {
      body: data.body || '',
      tag: data.tag,
      icon: '/favicon.svg',
      data: { url: data.url },
    }),
  );
});

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const raw = event.notification.data?.url;
  // Only this site's own pages: a push payload never sends the owner elsewhere.
  const url = raw && new URL(raw, self.location.origin).origin === self.location.origin ? raw : '/';
  event.waitUntil(
    self.clients.matchAll({ type: 'window', includeUncontrolled: true }).then((windows) => {
      for (const w of windows) if (w.url === url && 'focus' in w) return w.focus();
      return self.clients.openWindow(url);
    }),
  );
});
