/**
 * Critical's part of the attack card that the generic card cannot show: the attack table's row
 * read against the defender's armor (the total, the row, the code such as `20AS`, the open-ended
 * roll and the bonus over 150), a fumble that ends the attacker's round, and the critical rolled
 * on its table with the wound text and its effects (CR-ATK-01 to CR-ATK-04, CR-CRT-01 to
 * CR-CRT-03); the vitals an undo sets conditions from (CR-HIT-02, CR-DTH-01); the attacker read
 * as able to act when the GM replays its stored attack. Each reader's client builds the view in
 * its own language from the stored results.
 */
import {
  applyEffect,
  isCriticalResult,
  OUT_CONDITIONS,
  type CriticalCombatant,
  woundTextKey,
  type CriticalDamagePacket,
} from "../../../rules/critical/index.js";
import type { VitalState } from "../../../rules/core/types.js";
import { localizeData, type Localizer } from "../../attack-card.js";
import type { TargetState } from "../../logic/card.js";
import type { VitalRules } from "../../logic/undo.js";
import type { CardRules, CardSection, CardSectionLine, CardView } from "../../play/card-rules.js";
import { tableLink } from "./tables.js";

/** A localized line of a core step's label and data. */
function line(
  i18n: Localizer,
  label: string,
  data: Record<string, string | number> | undefined,
  value: string,
  rule?: string,
): CardSectionLine {
  return { label: i18n.format(label, localizeData(data, i18n)), value, ...(rule ? { rule } : {}) };
}

/** A row's range as the table prints it: `106-110`, `up to 20`, `151+`. */
export function rowRange(range: [number | null, number | null]): string {
  const [lo, hi] = range;
  if (lo === null && hi !== null) return `\u2264${hi}`;
  if (hi === null && lo !== null) return `${lo}+`;
  return lo === hi ? String(lo) : `${lo}\u2013${hi}`;
}

/**
 * A wound text as the reader sees it (CR-CRT-02): a built-in table's own text in the reader's
 * language, a GM's world table text as written; the stored text when the language lacks the key.
 */
export function woundText(text: string, i18n: Pick<Localizer, "localize">): string {
  const key = woundTextKey(text);
  const shown = key ? i18n.localize(key) : text;
  return shown === key ? text : shown;
}

/** The critical rolled, when the packet on the card carries one. */
function criticalOf(t: TargetState): CriticalDamagePacket["critical"] {
  return (t.damage as Partial<CriticalDamagePacket> | undefined)?.critical;
}

/**
 * The attack-table section of a target (CR-ATK-01 to CR-ATK-04): the total looked up, the
 * defender's armor column, the row and its code; a fumble instead when the unmodified roll fell
 * in the weapon's fumble range.
 */
function attackSection(t: TargetState, i18n: Localizer): CardSection | undefined {
  const r = t.result;
  if (!isCriticalResult(r)) return undefined;
  const d = r.detail;
  const table = i18n.localize(`FRAY.Critical.WeaponClass.${d.weaponClass}`);
  const lines: CardSectionLine[] = [];
  if (d.openEnded) {
    const faces = r.check.roll.dice[0]?.results ?? [];
    lines.push({
      label: i18n.format("FRAY.Critical.Log.OpenEnded", { faces: faces.join(" + "), total: String(r.check.natural) }),
      value: "",
      rule: "CR-ATK-01",
    });
  }
  if (d.fumble) {
    lines.push({
      label: i18n.format("FRAY.Critical.Log.Fumble", { unmodified: String(d.unmodified) }),
      value: String(d.unmodified),
      rule: "CR-ATK-01",
    });
    lines.push({ label: i18n.localize("FRAY.Critical.Card.FumbleEnds"), value: "", rule: "CR-ATK-01" });
    return { title: i18n.localize("FRAY.Critical.Card.Fumble"), rule: "CR-ATK-01", lines, kind: "fumble" };
  }
  const lookup = r.lookups?.[0];
  lines.push({ label: i18n.localize("FRAY.Critical.Card.Total"), value: String(d.total), rule: "CR-ATK-01" });
  lines.push({
    label: i18n.localize("FRAY.Critical.Card.ArmorColumn"),
    value: i18n.localize(`FRAY.Critical.Armor.${d.armorType}`),
    rule: "CR-ATK-02",
  });
  if (lookup) lines.push({ label: i18n.localize("FRAY.Critical.Card.Row"), value: rowRange(lookup.range), rule: "CR-ATK-02" });
  lines.push({ label: i18n.localize("FRAY.Critical.Card.Result"), value: d.code?.code ?? "-", rule: "CR-ATK-02" });
  if (d.critBonus)
    lines.push({
      label: i18n.format("FRAY.Critical.Log.Over150", { total: String(d.total), bonus: String(d.critBonus) }),
      value: `+${d.critBonus}`,
      rule: "CR-ATK-04",
    });
  // The attack table of the weapon class against the defender's armor type (CR-ATK-03).
  const link = tableLink(`${d.table}.${d.armorType}`);
  return {
    title: i18n.format("FRAY.Critical.Card.AttackTable", { table }),
    rule: "CR-ATK-03",
    lines,
    ...(link ? { link } : {}),
    kind: "attack-table",
  };
}

/**
 * The critical section (CR-CRT-02, CR-CRT-03, CR-ATK-04): the d100 and the bonus, the value
 * looked up in the severity's column, UM66 on an unmodified 66, the wound text and each effect as
 * applying it will read (the core's own steps, dry-run on an empty state).
 */
function criticalSection(t: TargetState, i18n: Localizer): CardSection | undefined {
  const c = criticalOf(t);
  if (!c) return undefined;
  const type = i18n.localize(`FRAY.Critical.Type.${c.type}`);
  const lines: CardSectionLine[] = [
    { label: i18n.localize("FRAY.Critical.Card.CriticalRoll"), value: String(c.unmodified), rule: "CR-CRT-02" },
  ];
  if (c.bonus) lines.push({ label: i18n.localize("FRAY.Critical.Card.CriticalBonus"), value: `+${c.bonus}`, rule: "CR-ATK-04" });
  lines.push({ label: i18n.localize("FRAY.Critical.Card.CriticalValue"), value: String(c.value), rule: "CR-CRT-02" });
  if (c.um66) lines.push({ label: i18n.localize("FRAY.Critical.Log.Um66"), value: "66", rule: "CR-CRT-03" });
  lines.push({ label: i18n.localize("FRAY.Critical.Card.Entry"), value: c.entry.name, rule: "CR-CRT-02" });
  const extra = c.entry.effects.reduce((s, e) => s + (e.type === "hits" ? e.value : 0), 0);
  if (extra) lines.push(line(i18n, "FRAY.Step.CriticalHits", { hits: extra }, String(extra), "CR-CRT-02"));
  const scratch: VitalState = { conditions: [], effects: [], stun: 0 };
  for (const e of c.entry.effects) {
    for (const s of applyEffect(scratch, e, { location: c.entry.location, text: c.entry.text, ranks: Number.POSITIVE_INFINITY }, [])) {
      lines.push(line(i18n, s.label, s.data, "", s.rule));
    }
  }
  // The table of the critical's type and severity (CR-CRT-01), the world's or the compendium's.
  const link = tableLink(`${c.table}.${c.severity}`);
  return {
    title: i18n.format("FRAY.Critical.Card.Critical", { severity: c.severity, type }),
    rule: "CR-CRT-01",
    lines,
    // A built-in table's wound text in the reader's language; a world table's text as written (CR-CRT-02).
    text: woundText(c.entry.text, i18n),
    ...(link ? { link } : {}),
    kind: "critical",
  };
}

/** The card's view of one Critical target: its sections, the outcome in Critical's words, the buttons named for what they do. */
export function criticalCardView(t: TargetState, i18n: Localizer): CardView {
  const r = t.result;
  if (!isCriticalResult(r)) return {};
  const sections = [attackSection(t, i18n), criticalSection(t, i18n)].filter((s): s is CardSection => Boolean(s));
  const code = r.detail.code;
  const outcomeLabel = r.detail.fumble
    ? i18n.localize("FRAY.Critical.Card.Fumble")
    : !r.hit
      ? i18n.localize("FRAY.Critical.Card.NoEffect")
      : code?.severity && code.type
        ? i18n.format("FRAY.Critical.Card.HitsAndCritical", {
            hits: String(code.hits),
            severity: code.severity,
            type: i18n.localize(`FRAY.Critical.Type.${code.type}`),
          })
        : i18n.format("FRAY.Critical.Card.HitsOnly", { hits: String(code?.hits ?? 0) });
  return {
    sections,
    outcomeLabel,
    comparison: i18n.format("FRAY.Critical.Card.Comparison", {
      total: String(r.check.total),
      defense: String(r.plan.difficulty.total),
      result: String(r.detail.total),
    }),
    hideDamage: true,
    buttonLabels: {
      rollDamage: r.critical ? "FRAY.Critical.Card.RollCritical" : "FRAY.Critical.Card.TakeHits",
      applyDamage: "FRAY.Critical.Card.Apply",
    },
    // The parry is OB moved into DB before the attack (CR-PAR-01), never a step on the card.
    hiddenActions: ["parry", "dodge", "noReaction"],
  };
}

/** A Critical attacker read as able to act: the out-of-fight conditions and knock-outs set aside (its attack was made while it could act). */
export function ableAttacker(c: CriticalCombatant): CriticalCombatant {
  const out = new Set<string>(OUT_CONDITIONS);
  return {
    ...c,
    conditions: c.conditions.filter((x) => !out.has(x)),
    effects: c.effects.filter((e) => e.kind !== "unconscious" && e.kind !== "dying"),
  };
}

/**
 * Critical's vitals on undo: `unconscious` follows a knock-out effect (CR-HIT-02, CR-CRT-02),
 * `down` a dying count-down (CR-DTH-01); hits may go below 0 (CR-HIT-01).
 */
export const CRITICAL_VITALS: VitalRules = {
  conditions: ["unconscious", "down"],
  implied: (state) => {
    const kinds = new Set((state.effects ?? []).map((e) => e.kind));
    return [...(kinds.has("unconscious") ? ["unconscious"] : []), ...(kinds.has("dying") ? ["down"] : [])];
  },
  floors: { hp: -Infinity },
};

/** Critical's card rules: no reaction on the card (the parry is declared beforehand, CR-PAR-01), the view, undo's vitals. */
export const criticalCardRules: CardRules = {
  view: criticalCardView,
  vitals: CRITICAL_VITALS,
  ableAttacker: (c) => ableAttacker(c as CriticalCombatant),
  hpLabel: "FRAY.Flow.Card.Hits",
};
