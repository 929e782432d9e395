/**
 * The browser-wide channel of the session (spec §4): tabs tell each other about activity, the idle
 * sign-out and an instance switch, so that every open tab follows at once.
 */
export const SESSION_CHANNEL = 'bilan-session';

export type SessionMessage =
  | { type: 'activity'; at: number }
  | { type: 'signout' }
  /** The session moved to instance `uuid` (profile 'CHANGE INSTANCE' in one tab). */
  | { type: 'instance'; uuid: string };

/** Tells the other tabs that the session now belongs to instance `uuid`. */
export function announceInstanceSwitch(uuid: string): void {
  if (typeof BroadcastChannel === 'undefined') return;
  const channel = new BroadcastChannel(SESSION_CHANNEL);
  channel.postMessage({ type: 'instance', uuid } satisfies SessionMessage);
  channel.close();
}

/** Calls `onSwitch(uuid)` when another tab switched the session's instance; returns the stop function. */
export function watchInstanceSwitch(onSwitch: (uuid: string) => void): () => void {
  if (typeof BroadcastChannel === 'undefined') return () => undefined;
  const channel = new BroadcastChannel(SESSION_CHANNEL);
  channel.onmessage = (event: MessageEvent<SessionMessage>) => {
    if (event.data?.type === 'instance' && typeof event.data.uuid === 'string') onSwitch(event.data.uuid);
  };
  return () => channel.close();
}
