/**
 * The declaration phase of a round, for rulesets whose combatants declare before they act:
 * lowest initiative first (Critical CR-INI-02), everyone at once and resolved together (Hitbox
 * HB-ACT-01), or players first (Zones ZN-INI-01). Pure: who declares now, when the phase is
 * over, and who may read a declaration before the reveal. The Foundry tracker and the encounter
 * runner both read it.
 */
import type { DeclarationOrder } from "./ruleset.js";

/** A combatant as the declaration phase sees it. */
export interface Declarant {
  id: string;
  /** Played by a player (not the GM). */
  player: boolean;
  /** Initiative total; absent where the ruleset rolls none before declaring. */
  initiative?: number;
  /** Values compared, in order, when initiative totals tie (higher acts first). */
  tiebreak?: number[];
  /** Out of the fight: declares nothing. */
  out?: boolean;
}

/** Where the phase of a round stands. */
export type DeclarationPhase = "declare" | "resolve";

/** Compares two declarants in acting order: higher initiative first, then the tie-breaks. */
function actsBefore(a: Declarant, b: Declarant): number {
  const d = (b.initiative ?? 0) - (a.initiative ?? 0);
  if (d !== 0) return d;
  const ta = a.tiebreak ?? [];
  const tb = b.tiebreak ?? [];
  for (let i = 0; i < Math.max(ta.length, tb.length); i++) {
    const t = (tb[i] ?? 0) - (ta[i] ?? 0);
    if (t !== 0) return t;
  }
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/**
 * The ids of the combatants who declare now, given those who already have:
 * - `none`: nobody (combatants act on their turn);
 * - `simultaneous`: everyone who has not declared yet (HB-ACT-01);
 * - `lowest-first`: the one undeclared combatant who acts last (CR-INI-02), so each declarer
 *   knows what the slower ones declared;
 * - `players-first`: the undeclared player characters, and only once all of them have, the
 *   GM's combatants (ZN-INI-01).
 * Combatants that are out declare nothing.
 */
export function declaringNow(order: DeclarationOrder, declarants: readonly Declarant[], declared: ReadonlySet<string>): string[] {
  const open = declarants.filter((d) => !d.out && !declared.has(d.id));
  switch (order) {
    case "none":
      return [];
    case "simultaneous":
      return open.map((d) => d.id);
    case "lowest-first": {
      const last = [...open].sort(actsBefore).pop();
      return last ? [last.id] : [];
    }
    case "players-first": {
      const players = open.filter((d) => d.player);
      return (players.length ? players : open).map((d) => d.id);
    }
  }
}

/** True when everyone still in the fight has declared (the GM may then reveal and resolve). */
export function allDeclared(declarants: readonly Declarant[], declared: ReadonlySet<string>): boolean {
  return declarants.every((d) => d.out || declared.has(d.id));
}

/** Who is reading a declaration. */
export interface DeclarationReader {
  isGM: boolean;
  /** Owns the declaring combatant. */
  owns: boolean;
}

/**
 * Whether a reader may see a declaration: the GM and the declarer's owner always; everyone once
 * the phase is resolved; under `lowest-first` everyone as soon as it is made (the faster
 * combatants declare knowing the slower ones' declarations, CR-INI-02); otherwise nobody else
 * before the reveal (HB-ACT-01, ZN-INI-01).
 */
export function declarationVisible(order: DeclarationOrder, phase: DeclarationPhase, reader: DeclarationReader): boolean {
  if (reader.isGM || reader.owns || phase === "resolve") return true;
  return order === "lowest-first";
}
