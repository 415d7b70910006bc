/**
 * The token ruler's budget: which movement band a distance falls in this round, its colour, and
 * what moving that far costs in the round's economy (UD-MOV-01 to UD-MOV-03, UD-RND-02). Pure.
 */
import type { ActionCost } from "../../rules/core/economy.js";
import type { MovementBand } from "../../rules/core/ruleset.js";

/** A band id, or `beyond` past full movement. */
export type BandId = "step" | "standard" | "full" | "beyond";

/** Ruler colours per band: green step, blue standard, amber full, red beyond. */
export const BAND_COLOURS: Record<BandId, number> = {
  step: 0x33cc66,
  standard: 0x3388ff,
  full: 0xffaa00,
  beyond: 0xdd2222,
};

/** i18n key of each band's label. */
export const BAND_LABELS: Record<BandId, string> = {
  step: "FRAY.Move.step",
  standard: "FRAY.Move.standard",
  full: "FRAY.Move.full",
  beyond: "FRAY.Flow.Move.beyond",
};

/**
 * The band of a total distance moved this round (UD-MOV-01 to UD-MOV-03): the first band whose
 * reach covers it, `beyond` past full movement.
 * @param metres distance moved this round, history included.
 * @param bands the core's bands, nearest first (`ud10.movement(c)`).
 */
export function bandFor(metres: number, bands: readonly MovementBand[]): BandId {
  const band = bands.find((b) => metres <= b.maxMetres + 1e-9);
  return (band?.id as BandId | undefined) ?? "beyond";
}

/** The ruler colour of a distance moved this round. */
export function bandColour(metres: number, bands: readonly MovementBand[]): number {
  return BAND_COLOURS[bandFor(metres, bands)];
}

/** What the round's movement costs once it reaches a band: the core's cost of that band. */
export function bandCost(band: BandId, bands: readonly MovementBand[]): ActionCost {
  if (band === "beyond") return bands[bands.length - 1]?.cost ?? {};
  return bands.find((b) => b.id === band)?.cost ?? {};
}

/**
 * What a move adds to the round's economy: the cost of the band reached minus the cost of the
 * band already paid (moving 3 m, then 4 m more with standard movement 7 m pays the movement once;
 * going past 7 m later adds the action, UD-MOV-03).
 */
export function movementCharge(fromMetres: number, toMetres: number, bands: readonly MovementBand[]): ActionCost {
  const before = bandCost(bandFor(fromMetres, bands), bands).slots ?? {};
  const after = bandCost(bandFor(toMetres, bands), bands).slots ?? {};
  const slots: Record<string, number> = {};
  for (const [id, n] of Object.entries(after)) {
    const extra = n - (before[id] ?? 0);
    if (extra > 0) slots[id] = extra;
  }
  return Object.keys(slots).length ? { slots } : {};
}

/** The world setting for moves past full movement: only shown in red, or refused. */
export type BeyondFullPolicy = "show" | "refuse";

/**
 * Whether a move must be refused: only with the `refuse` setting, and only when the move would
 * end past full movement this round (UD-MOV-03).
 */
export function refuseMove(policy: BeyondFullPolicy, totalMetres: number, bands: readonly MovementBand[]): boolean {
  return policy === "refuse" && bandFor(totalMetres, bands) === "beyond";
}
