/** A tiny typed emitter: on() hands back its own unsubscribe, which suits useSyncExternalStore. */
export class Emitter<Events extends object> {
  private readonly listeners = new Map<keyof Events, Set<(payload: never) => void>>();

  on<K extends keyof Events>(type: K, listener: (payload: Events[K]) => void): () => void {
    let set = this.listeners.get(type);
    if (!set) this.listeners.set(type, (set = new Set()));
    set.add(listener);
    return () => set.delete(listener);
  }

  protected emit<K extends keyof Events>(type: K, payload: Events[K]): void {
    for (const listener of [...(this.listeners.get(type) ?? [])]) {
      // One view's failing handler must not stop the player or the other listeners.
      try {
        (listener as (payload: Events[K]) => void)(payload);
      } catch (err) {
        console.error(err);
      }
    }
  }

  protected removeAllListeners(): void {
    this.listeners.clear();
  }
}
