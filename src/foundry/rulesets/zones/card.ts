/**
 * Zones' part of the attack card that cannot be generic: the defender's dodge or block chosen on
 * the card after seeing the hit (ZN-MEL-02 to ZN-MEL-04), the attacker as a replay reads it (its
 * weapon as it was before the shot, ZN-BST-01, ZN-MAL-01, ZN-THR-01), the conditions an undo sets
 * from the hit points (ZN-ZON-02), and the card's own rows: every bullet of a burst with its
 * difficulty, hit or miss and hit zone (ZN-BST-01, ZN-ZON-01, ZN-ZON-03), what cut the burst
 * short (ZN-MAL-01), the exact chance of each number of hits of a burst, the rounds spent, where
 * a missed grenade lands (ZN-GRN-01) and the damage rolled per bullet (ZN-DMG-01). Pure: no Foundry globals.
 */
import type { DiceRoller } from "../../../rules/core/dice/port.js";
import type { AttackResult, DamagePacket, ReactionOption } from "../../../rules/core/ruleset.js";
import type { VitalState } from "../../../rules/core/types.js";
import { rollCheck, type ZonesAttackResult, type ZonesCombatant } from "../../../rules/zones/index.js";
import { decimal, type CardDetail, type Localizer } from "../../attack-card.js";
import type { TargetState } from "../../logic/card.js";
import type { VitalRules } from "../../logic/undo.js";
import type { CardRules } from "../../play/card-rules.js";

/** Conditions that keep a Zones combatant from acting (the core's own list, ZN-ZON-02, ZN-GRN-01, ZN-SUR-01). */
const NOT_ACTING = ["unconscious", "incapacitated", "dead", "surprised"];

/**
 * The result after the defender's dodge or block made on the card (ZN-MEL-03, ZN-MEL-04): the
 * reaction's d10 with the option's lines; it works when its total exceeds the attack's. A dodge
 * that works stops the attack; a block that works leaves it landing, and the damage roll halves
 * each hit. The hit zones rolled with the attack stay.
 * @throws FrayError from the dice port.
 */
export async function zonesReactOnCard(result: AttackResult, option: ReactionOption, dice: DiceRoller): Promise<AttackResult> {
  const check = await rollCheck(dice, option.modifiers, option.id === "dodge" ? "FRAY.Roll.Dodge" : "FRAY.Roll.Block");
  const success = check.total > result.check.total;
  const effect = option.id === "dodge" ? "negate" : "halve";
  return {
    ...result,
    reaction: { id: option.id, rule: option.rule, check, success, effect },
    lands: result.lands && !(success && effect === "negate"),
  };
}

/**
 * A Zones attacker read as able to make its own stored attack again (the replay of apply): not
 * out of the fight nor surprised, HP at least 1, and the weapon of the attack as it was before
 * the shot: drawn, not broken, no malfunction, and loaded with the rounds the attack spent
 * (ZN-BST-01: a burst fires at most what is loaded, so the replay fires the same bullets).
 */
export function zonesAbleAttacker(c: ZonesCombatant, result?: AttackResult): ZonesCombatant {
  const r = result as ZonesAttackResult | undefined;
  const weaponId = r?.plan.weaponId;
  return {
    ...c,
    hp: { ...c.hp, value: Math.max(1, c.hp.value) },
    conditions: c.conditions.filter((x) => !NOT_ACTING.includes(x)),
    weapons: c.weapons.map((w) => {
      if (w.id !== weaponId) return w;
      const spent = r?.spent ?? r?.bullets?.fired;
      return {
        ...w,
        drawn: true,
        broken: false,
        malfunction: null,
        loaded: w.kind === "firearm" && spent !== undefined ? Math.max(1, spent) : w.loaded,
      };
    }),
  };
}

/**
 * Zones' vitals on undo: incapacitated at 0 HP or below (ZN-ZON-02, RULES.md); HP may fall below
 * 0, as the core subtracts whole hits.
 */
export const ZONES_VITALS: VitalRules = {
  conditions: ["incapacitated"],
  implied: (state: VitalState) => (state.hp && state.hp.value <= 0 ? ["incapacitated"] : []),
  floors: { hp: -Infinity },
};

/** The dice of a roll, e.g. `3, 4`. */
function faces(roll: { dice: { results: number[] }[] } | undefined): string {
  return (roll?.dice ?? []).flatMap((d) => d.results).join(", ");
}

/** The damage packets of a target, one per bullet that landed. */
function hitsOf(packet: DamagePacket | undefined): DamagePacket[] {
  if (!packet) return [];
  return packet.parts?.length ? packet.parts : [packet];
}

/**
 * The card's Zones rows of one target: each bullet (ZN-BST-01: its difficulty, hit or miss, and
 * for a hit its zone, rolled on 2d6 or aimed, ZN-ZON-01, ZN-ZON-03), the chance of exactly k
 * hits as weighed before the roll, what stopped the burst (ZN-MAL-01), the rounds spent, a catastrophic squib (ZN-MAL-01), a missed grenade's landing
 * point (ZN-GRN-01) and each hit's damage roll (ZN-DMG-01).
 */
export function zonesCardDetail(t: TargetState, i18n: Localizer): CardDetail[] {
  const r = t.result as ZonesAttackResult;
  const rows: CardDetail[] = [];
  const total = String(r.check.total);
  const zone = (i: number): string => {
    const loc = r.locations?.[i] ?? (i === 0 ? r.location : undefined);
    if (!loc) return "";
    const label = i18n.localize(loc.label);
    return loc.roll ? `${label} (${loc.roll.total})` : `${label} (${i18n.localize("FRAY.Zones.Card.Aimed")})`;
  };
  if (r.catastrophic) {
    rows.push({ label: i18n.localize("FRAY.Zones.Card.Catastrophic"), value: "", rule: "ZN-MAL-01", outcome: "miss" });
  }
  const difficulties = r.bullets?.difficulties ?? [];
  difficulties.forEach((difficulty, i) => {
    const hit = r.check.total >= difficulty;
    const landed = hit && r.lands;
    const label = i18n.format("FRAY.Zones.Card.Bullet", { n: String(i + 1), difficulty: String(difficulty), total });
    rows.push({
      label: landed ? `${label} · ${zone(i)}` : label,
      value: i18n.localize(hit ? "FRAY.Chat.Hit" : "FRAY.Chat.Miss"),
      rule: landed && r.locations?.[i] ? r.locations[i]!.rule : "ZN-BST-01",
      outcome: hit ? "hit" : "miss",
    });
  });
  // The exact chance of each number of hits, computed before the roll (ZN-BST-01).
  if (difficulties.length > 1) {
    for (let k = 1; k <= difficulties.length; k++) {
      const p = t.odds?.outcomes?.[`hits${k}`];
      if (p === undefined || p <= 0) continue;
      rows.push({
        label: i18n.format("FRAY.Zones.Card.HitsOdds", { hits: String(k), fired: String(difficulties.length) }),
        value: `${decimal(p * 100, i18n.lang)} %`,
        rule: "ZN-BST-01",
      });
    }
  }
  if (r.bullets?.stoppedBy) {
    rows.push({
      label: i18n.format("FRAY.Zones.Log.Stopped", { malfunction: i18n.localize(r.bullets.stoppedBy) }),
      value: "",
      rule: "ZN-MAL-01",
    });
  }
  if (r.spent !== undefined) {
    rows.push({ label: i18n.localize("FRAY.Zones.Card.Spent"), value: String(r.spent), rule: "ZN-BST-01" });
  }
  if (r.deviation !== undefined) {
    rows.push({ label: i18n.localize("FRAY.Zones.Card.Deviation"), value: `${r.deviation} m`, rule: "ZN-GRN-01" });
  }
  // One hit is the card's own damage line; a burst's hits each get a row.
  const hits = hitsOf(t.damage);
  if (hits.length > 1)
    hits.forEach((p, i, all) => {
      const where = p.location ? i18n.localize(`FRAY.Zones.Zone.${p.location}`) : "";
      const type = p.type ? i18n.localize(`FRAY.Zones.DamageType.${p.type}`) : "";
      rows.push({
        label: i18n.format(all.length > 1 ? "FRAY.Zones.Card.DamageOf" : "FRAY.Zones.Card.Damage", {
          n: String(i + 1),
          formula: p.roll.formula,
          dice: faces(p.roll),
        }),
        value: [String(p.amount), type, where].filter(Boolean).join(" · "),
        rule: "ZN-DMG-01",
      });
    });
  return rows;
}

/** Zones' card rules. */
export const zonesCardRules: CardRules = {
  react: zonesReactOnCard,
  vitals: ZONES_VITALS,
  ableAttacker: (c, result) => zonesAbleAttacker(c as ZonesCombatant, result),
  detail: zonesCardDetail,
  damageRule: "ZN-DMG-01",
};
