/** Waiting in the Quench batches: for the next call of a hook, or for a condition to hold. */

/** Waits for the next `name` hook call, or `undefined` after `ms` milliseconds. */
export function nextHook(name: string, ms = 5_000): Promise<unknown[] | undefined> {
  return new Promise((resolve) => {
    const on = Hooks.on.bind(Hooks) as unknown as (n: string, fn: (...args: unknown[]) => void) => number;
    const off = Hooks.off.bind(Hooks) as unknown as (n: string, id: number) => void;
    const timer = setTimeout(() => {
      off(name, id);
      resolve(undefined);
    }, ms);
    const id = on(name, (...args: unknown[]) => {
      clearTimeout(timer);
      off(name, id);
      resolve(args);
    });
  });
}

/** Resolves once `test` holds, or after `ms` milliseconds with false. */
export async function until(test: () => boolean, ms = 5_000): Promise<boolean> {
  const end = Date.now() + ms;
  while (!test()) {
    if (Date.now() > end) return false;
    await new Promise((r) => setTimeout(r, 50));
  }
  return true;
}
