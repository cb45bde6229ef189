// The site's one service worker (site/service-worker.js). The build writes it as the site's
// /service-worker.js, in place of JupyterLite's, with VERSION and the lists filled in.
//
// One worker controls one scope, and the site has one scope, its root: the app's page registers
// this file at the very address JupyterLite's lab registers its own worker
// (service-worker.js?enableCache=false), so the lab finds it already there and keeps it. It does
// what JupyterLite's worker did for the lab, and the offline copy besides:
//  * the lab's contents drive: a kernel's request under /api/drive is answered by the lab's page
//    over the BroadcastChannel "/api/drive.v1" (JupyterLite's protocol), and the lab's heartbeat;
//  * the offline copy, in the cache "speculation-site-<VERSION>" (VERSION: a hash of every file of
//    the build): the Pyodide folder, whose name carries the hash of its lock, is served from the
//    cache first (a file there never changes); every other file from the network first, kept for
//    when the network is gone (a stopped server, a train), and served from the cache after
//    NETWORK_WAIT_MS when a copy is there and the network is slow to answer;
//  * on a first visit it installs at once with the small pages only (SHELL), and the page asks it to
//    fetch the rest of APP_FILES once the app is interactive (Pyodide, every wheel the app loads
//    and numpy for Simulate: no download competes with the app's start);
//  * a new build is a new VERSION, so a new worker: it fetches the whole of APP_FILES before it
//    takes over (the pyodide files it already has are copied from the old cache), then deletes
//    every older cache;
//  * once a lesson's kernel has started in the lab, the lab's page (site/lab.js) asks it to fetch
//    LAB_FILES: a lesson opened once opens and runs offline.
"use strict";

const VERSION = "__VERSION__";
const PREFIX = "speculation-site-";
const CACHE = PREFIX + VERSION;
/** The small pages and the manifest: cached as the worker installs. Relative to this file's folder. */
const SHELL = /*SHELL*/ [];
/** Everything the app's page needs to play and simulate offline (SHELL included). */
const APP_FILES = /*APP_FILES*/ [];
/** Everything a lesson needs to open and run in the lab offline: fetched once a lesson has run
 *  (site/lab.js asks), kept until a new build. */
const LAB_FILES = /*LAB_FILES*/ [];
/** A file in the Pyodide folder never changes: its folder's name changes instead. */
const IMMUTABLE = /\/static\/pyodide-[0-9a-f]+\//;
const NETWORK_WAIT_MS = 4000;
const PARALLEL = 4;
const drive = new BroadcastChannel("/api/drive.v1");

function absolute(path) {
  return new URL(path, self.registration.scope).href;
}

/** The cache's key of a request: a page without its query (?seed=, ?lang= ... are the same page). */
function key(request) {
  if (request.mode === "navigate") {
    const url = new URL(request.url);
    url.search = "";
    url.hash = "";
    return url.href;
  }
  return request.url;
}

async function cached(cache, request) {
  const found = await cache.match(key(request));
  // A file of this build asked for with a cache-busting query (the lab's ?_=<hash>, the
  // extensions' ?v=<hash>) is the copy kept under its plain address.
  return (
    found ||
    (await cache.match(key(request), { ignoreSearch: true })) ||
    (await caches.match(key(request), { ignoreSearch: request.mode === "navigate" }))
  );
}

function keep(cache, request, response) {
  if (response && response.ok && response.type === "basic" && !response.redirected) {
    return cache.put(key(request), response.clone());
  }
  return Promise.resolve();
}

/** Fetch every path of ``paths`` the cache lacks, PARALLEL at a time; a Pyodide file found in an
 *  older cache is copied from it. Rejects when one cannot be had. */
async function fill(cache, paths, older) {
  const todo = [];
  for (const path of paths) {
    const url = absolute(path);
    if (!(await cache.match(url))) {
      todo.push(url);
    }
  }
  async function one(url) {
    if (IMMUTABLE.test(url)) {
      for (const name of older) {
        const old = await (await caches.open(name)).match(url);
        if (old) {
          return cache.put(url, old);
        }
      }
    }
    const response = await fetch(url, { cache: IMMUTABLE.test(url) ? "default" : "no-cache" });
    if (!response.ok) {
      throw new Error(`${url}: ${response.status}`);
    }
    return cache.put(url, response);
  }
  async function lane() {
    while (todo.length) {
      await one(todo.shift());
    }
  }
  await Promise.all(Array.from({ length: PARALLEL }, lane));
}

async function olderCaches() {
  return (await caches.keys()).filter((name) => name.startsWith(PREFIX) && name !== CACHE);
}

self.addEventListener("install", (event) => {
  self.skipWaiting();
  event.waitUntil(
    (async () => {
      const cache = await caches.open(CACHE);
      const older = await olderCaches();
      // An update replaces a whole offline copy: it is complete before the old one goes.
      await fill(cache, older.length ? APP_FILES : SHELL, older);
    })(),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    (async () => {
      await Promise.all((await olderCaches()).map((name) => caches.delete(name)));
      await caches.delete("precache"); // JupyterLite's own worker's cache, from before this one
      await self.clients.claim();
    })(),
  );
});

self.addEventListener("message", (event) => {
  const data = event.data || {};
  if (data.type !== "speculation-fill") {
    return;
  }
  const source = event.source;
  const tell = (message) => source && source.postMessage({ ...message, version: VERSION });
  event.waitUntil(
    (async () => {
      try {
        await fill(await caches.open(CACHE), data.part === "lab" ? LAB_FILES : APP_FILES, await olderCaches());
        tell({ type: "speculation-offline-ready" });
      } catch (error) {
        tell({ type: "speculation-offline-failed", error: String(error) });
      }
    })(),
  );
});

/** JupyterLite's drive: the lab's page answers a kernel's file request. */
async function fromDrive(request) {
  const answer = new Promise((resolve) => {
    drive.onmessage = (message) => resolve(new Response(JSON.stringify(message.data)));
  });
  const data = await request.json();
  data.receiver = "broadcast.ts";
  drive.postMessage(data);
  return answer;
}

async function cacheFirst(event, cache) {
  const found = await cached(cache, event.request);
  if (found) {
    return found;
  }
  const response = await fetch(event.request);
  event.waitUntil(keep(cache, event.request, response));
  return response;
}

async function networkFirst(event, cache) {
  const request = event.request;
  const fresh = fetch(request, { cache: "no-cache" }).then((response) => {
    event.waitUntil(keep(cache, request, response));
    return response;
  });
  const copy = await cached(cache, request);
  if (!copy) {
    return fresh;
  }
  const late = new Promise((resolve) => setTimeout(() => resolve(copy), NETWORK_WAIT_MS));
  return Promise.race([fresh.catch(() => copy), late]);
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (url.pathname.endsWith("/api/service-worker-heartbeat")) {
    event.respondWith(new Response("ok"));
    return;
  }
  if (url.origin === self.location.origin && url.pathname.includes("/api/drive")) {
    event.respondWith(fromDrive(request));
    return;
  }
  if (request.method !== "GET" || url.origin !== self.location.origin || request.headers.has("range")) {
    return; // the browser's own way
  }
  event.respondWith(
    caches.open(CACHE).then((cache) => (IMMUTABLE.test(url.pathname) ? cacheFirst : networkFirst)(event, cache)),
  );
});
