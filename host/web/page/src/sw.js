// The service worker of askhost web's page, for one thing only: Chrome on Android shows
// notifications from a service worker alone (new Notification() throws there). It caches nothing
// and handles no request. A tap on its notification brings the page back with that question open.
'use strict';

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const key = event.notification.tag;
  event.waitUntil(
    self.clients.matchAll({ type: 'window', includeUncontrolled: true }).then((pages) => {
      const page = pages[0];
      if (!page) return self.clients.openWindow('./');
      page.postMessage({ type: 'open', key });
      return page.focus();
    }),
  );
});
