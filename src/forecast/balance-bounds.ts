/**
 * What a balance search (./balance.ts) may be asked, without the search: the Foundry client checks
 * the GM's entries with these and leaves the search to its worker, whose bundle alone holds the
 * encounter runner.
 */

/** How the search changes the encounter: the number of opponents of each kind, or their stats. */
export const BALANCE_MODES = ["count", "scale"] as const;
export type BalanceMode = (typeof BALANCE_MODES)[number];

/** The chances a GM may ask for: 1% to 99%. */
export const BALANCE_TARGET = { min: 0.01, max: 0.99, integer: false } as const;
