/**
 * The pure part of a Zones blast (ZN-GRN-01, ZN-THR-01): where a throw lands, who is caught and
 * how far, the GM's full body armor tick on a combatant, and the blast card's template context.
 * No Foundry globals.
 */
import type { BlastOutcome, ZonesCombatant } from "../../../rules/zones/index.js";
import { toMetres } from "../../measure.js";

/** A point on the scene, pixels. */
export interface Point {
  x: number;
  y: number;
}

/** The grenade as thrown (metres, a damage formula). */
export interface BlastGrenade {
  name: string;
  effectiveRadius: number;
  casualtyRadius: number;
  damage: string;
}

/** A token caught by the blast, as the card lists it. */
export interface BlastRow {
  tokenId: string;
  actorUuid: string;
  name: string;
  /** Metres from the blast's centre, one decimal. */
  distance: number;
  zone: BlastOutcome["zone"];
  /** Ticked: behind grenade-proof cover. */
  grenadeProof: boolean;
  /** Ticked: wearing full body armor (starts as the actor's armor says). */
  fullBody: boolean;
  /** After the GM applied: the effect and its reason (i18n keys), the hit points before and after. */
  effect?: BlastOutcome["effect"];
  reason?: string;
  hpBefore?: number;
  hpAfter?: number;
  /** Conditions the application added. */
  added?: string[];
}

/** The blast card's state, in `flags.fray.zonesBlast`. */
export interface BlastState {
  actorUuid: string;
  /**
   * The thrown grenade's item on the thrower (ZN-GRN-01): the GM reads the radii and damage
   * from it, never from `grenade`, and removes it when applying.
   */
  itemId: string;
  /** The grenade as the card shows it: the thrower's view until the GM applies, then the item's. */
  grenade: BlastGrenade;
  /** After the GM applied: the grenade item's source, kept to give it back on undo. */
  itemSource?: Record<string, unknown>;
  sceneId: string | null;
  templateUuid: string | null;
  /** The aim point and where the grenade landed (pixels). */
  aim: Point;
  centre: Point;
  check: number;
  difficulty: number;
  hit: boolean;
  /** Metres off the aim point for a missed throw (ZN-GRN-01). */
  deviation?: number;
  rows: BlastRow[];
  applied: boolean;
}

/** A token on the scene as the blast reads it. */
export interface SceneToken {
  id: string;
  name: string;
  center: Point;
  actor: { uuid: string; name?: string } | null;
}

/** Pixels per metre of the current scene's grid. */
export function pixelsPerMetre(grid: { size: number; distance: number; units?: string } | undefined): number {
  if (!grid || !(grid.size > 0) || !(grid.distance > 0)) return 100 / 1.5;
  return grid.size / toMetres(grid.distance, grid.units);
}

/**
 * Where a throw lands (ZN-GRN-01, RULES.md): on the aim point when it hits; a miss lands as many
 * metres off as it missed by, along the line of the throw beyond the aim point (the GM may move
 * the template to the direction they pick). A throw at the thrower's own point goes east.
 * @param deviation metres off; 0 or undefined for a hit.
 */
export function landingPoint(thrower: Point, aim: Point, deviation: number | undefined, pxPerMetre: number): Point {
  if (!deviation) return { ...aim };
  const dx = aim.x - thrower.x;
  const dy = aim.y - thrower.y;
  const len = Math.hypot(dx, dy);
  const [ux, uy] = len > 0 ? [dx / len, dy / len] : [1, 0];
  return { x: aim.x + ux * deviation * pxPerMetre, y: aim.y + uy * deviation * pxPerMetre };
}

/**
 * Every token with an actor within the casualty radius of a centre (ZN-GRN-01), nearest first,
 * distances centre to centre in metres (one decimal).
 */
export function tokensCaught(centre: Point, tokens: readonly SceneToken[], pxPerMetre: number, grenade: BlastGrenade): SceneToken[] {
  return tokens
    .filter((t) => t.actor && metresBetween(centre, t.center, pxPerMetre) <= grenade.casualtyRadius + 1e-9)
    .sort((a, b) => metresBetween(centre, a.center, pxPerMetre) - metresBetween(centre, b.center, pxPerMetre));
}

/** Metres between two points, one decimal. */
export function metresBetween(a: Point, b: Point, pxPerMetre: number): number {
  return Math.round((Math.hypot(a.x - b.x, a.y - b.y) / pxPerMetre) * 10) / 10;
}

/** The zone of a distance (ZN-GRN-01). */
export function zoneOf(distance: number, g: BlastGrenade): BlastOutcome["zone"] {
  return distance <= g.effectiveRadius ? "effective" : distance <= g.casualtyRadius ? "casualty" : "outside";
}

/**
 * A combatant as the GM's ticks say: full body armor ticked adds a piece marked `fullBody` that
 * stops nothing else; unticked removes the mark from the pieces worn (ZN-GRN-01).
 */
export function withFullBody(c: ZonesCombatant, fullBody: boolean): ZonesCombatant {
  const has = c.armor.some((a) => a.fullBody);
  if (has === fullBody) return c;
  if (!fullBody) return { ...c, armor: c.armor.map((a) => ({ ...a, fullBody: false })) };
  return {
    ...c,
    armor: [...c.armor, { id: "blast-suit", name: "blast suit", zones: { head: 0, torso: 0, arms: 0, legs: 0 }, fullBody: true }],
  };
}

/** What the blast card localizes with. */
export interface BlastI18n {
  localize(key: string): string;
  format(key: string, data: Record<string, string>): string;
}

/** The blast card's template context (pure): the state with each row's zone, effect and hit points localized. */
export function blastCardContext(state: BlastState, i18n: BlastI18n): Record<string, unknown> {
  const rows = state.rows.map((r) => ({
    ...r,
    zoneLabel: i18n.localize(`FRAY.Zones.Blast.zone.${r.zone}`),
    effectLabel: r.effect ? i18n.localize(`FRAY.Zones.Blast.effect.${r.effect}`) : "",
    reasonLabel: r.reason ? i18n.localize(r.reason) : "",
    hp:
      r.hpBefore !== undefined && r.hpAfter !== undefined && r.hpBefore !== r.hpAfter
        ? `${i18n.localize("FRAY.Flow.Card.HP")} ${r.hpBefore} → ${r.hpAfter}`
        : "",
  }));
  return {
    ...state,
    rows,
    title: i18n.format("FRAY.Zones.BlastCard.Title", { grenade: state.grenade.name }),
    // The folded card's line: the throw's total against its difficulty, and how far off it landed.
    throwResult: i18n.format("FRAY.Chat.Comparison", { total: String(state.check), difficulty: String(state.difficulty) }),
    deviationText: state.deviation ? i18n.format("FRAY.Zones.BlastCard.Off", { metres: String(state.deviation) }) : "",
  };
}
