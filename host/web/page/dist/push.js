// Web Push for the page of `askhost web` (issue 44, docs/web.md): once notifications are allowed,
// the browser is subscribed with the server's VAPID key (the server sends it after the snapshot,
// as push-key) and the subscription goes to the server over the page's WebSocket, so that the
// service worker (sw.js) is told of a question with the page closed. The button in the bar turns
// it off and on again for this device.
import { pushSubscribeMessage, pushUnsubscribeMessage } from './protocol.js';
const OFF_KEY = 'askhost-push-off';
const button = document.getElementById('push');
let serverKey;
let send;
/** The endpoint this device is subscribed with, when the server took it. */
let subscribed;
/** Endpoints the server dropped (their push service said gone): never offered again. */
const dropped = new Set();
/** A page subscribes afresh by itself once after a drop; after that, the button does it. */
let renewedAfterDrop = false;
function supported() {
    return 'serviceWorker' in navigator && 'PushManager' in window && window.isSecureContext && 'Notification' in window;
}
function turnedOff() {
    try {
        return localStorage.getItem(OFF_KEY) === '1';
    }
    catch {
        return false;
    }
}
function setTurnedOff(off) {
    try {
        if (off)
            localStorage.setItem(OFF_KEY, '1');
        else
            localStorage.removeItem(OFF_KEY);
    }
    catch {
        // A browser without storage forgets the choice with the page.
    }
}
function updateButton() {
    if (!button)
        return;
    const can = supported() && serverKey !== undefined && Notification.permission === 'granted';
    button.hidden = !can;
    const on = subscribed !== undefined;
    button.textContent = on ? 'Phone alerts: on' : 'Phone alerts: off';
    button.setAttribute('aria-pressed', String(on));
}
function keyBytes(text) {
    const b64 = text.replace(/-/g, '+').replace(/_/g, '/');
    const raw = atob(b64 + '='.repeat((4 - (b64.length % 4)) % 4));
    return Uint8Array.from(raw, (c) => c.charCodeAt(0));
}
function sameKey(a, b) {
    if (!a || a.byteLength !== b.length)
        return false;
    const x = new Uint8Array(a);
    return x.every((v, i) => v === b[i]);
}
/** Subscribes this browser (or keeps its subscription when it is for the server's key) and tells
 *  the server; nothing when notifications are not allowed or the person turned alerts off here. */
export async function subscribePush() {
    updateButton();
    if (!serverKey || !send || !supported() || Notification.permission !== 'granted' || turnedOff())
        return;
    try {
        const reg = await navigator.serviceWorker.ready;
        const key = keyBytes(serverKey);
        let sub = await reg.pushManager.getSubscription();
        // A subscription for another key (askhost web --new-token made a new one) is of no use.
        if (sub && !sameKey(sub.options.applicationServerKey, key)) {
            await sub.unsubscribe();
            sub = null;
        }
        // A subscription the server dropped is gone at its push service: a new one is needed.
        if (sub && dropped.has(sub.endpoint)) {
            await sub.unsubscribe();
            sub = null;
        }
        if (!sub)
            sub = await reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key });
        if (dropped.has(sub.endpoint)) {
            console.warn('askhost: this browser gave again a push subscription that is gone; phone alerts stay off');
        }
        else if (send(pushSubscribeMessage(sub.toJSON()))) {
            subscribed = sub.endpoint;
        }
    }
    catch (e) {
        console.warn(`askhost: no phone alerts on this device: ${String(e)}`);
    }
    updateButton();
}
async function unsubscribePush() {
    setTurnedOff(true);
    const endpoint = subscribed;
    subscribed = undefined;
    try {
        const sub = await (await navigator.serviceWorker.ready).pushManager.getSubscription();
        if (sub) {
            send?.(pushUnsubscribeMessage(sub.endpoint));
            await sub.unsubscribe();
        }
        else if (endpoint) {
            send?.(pushUnsubscribeMessage(endpoint));
        }
    }
    catch (e) {
        console.warn(`askhost: could not turn phone alerts off: ${String(e)}`);
    }
    updateButton();
}
/** The server's push messages: its key (after each snapshot), and its replies. */
export function onPushMessage(m, to) {
    if (m.type === 'push-key') {
        if (m.key === '')
            return;
        serverKey = m.key;
        send = to;
        void subscribePush();
    }
    else if (m.type === 'push-dropped') {
        // askhost web dropped this device (its push service said the subscription is gone): alerts
        // are off until a new subscription is made, once by itself, then by the button.
        if (subscribed !== undefined)
            dropped.add(subscribed);
        subscribed = undefined;
        console.warn(`askhost: the push service dropped this device's phone alerts: ${m.reason}`);
        updateButton();
        if (!renewedAfterDrop) {
            renewedAfterDrop = true;
            void subscribePush();
        }
    }
    else if (m.type === 'push-subscribed' && !m.ok) {
        subscribed = undefined;
        console.warn(`askhost: the server refused this device's phone alerts: ${String(m.error)}`);
        updateButton();
    }
}
button?.addEventListener('click', () => {
    if (subscribed !== undefined) {
        void unsubscribePush();
    }
    else {
        setTurnedOff(false);
        void subscribePush();
    }
});
