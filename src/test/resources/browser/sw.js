// security review 2026-12-06, N12: a service worker's own fetch to another local origin, then to its own (the control)
self.addEventListener('message', (event) => {
  event.waitUntil((async () => {
    try { await fetch(event.data + '/service-worker-fetch'); } catch (x) {}
    try { await fetch(self.location.origin + '/service-worker-control'); } catch (x) {}
    event.source.postMessage('done');
  })());
});
self.addEventListener('install', () => self.skipWaiting());
self.addEventListener('activate', (event) => event.waitUntil(self.clients.claim()));
