/**
 * The view model of the attack chat card (`templates/chat/attack-card.hbs`): every line of the
 * check and of the difficulty with its localized label, signed value and rule ID, the totals,
 * the outcome and the hit location. Pure: localization comes in as functions, so the card can
 * be built and tested without Foundry.
 */
import type { AttackOdds, AttackResult } from "../rules/core/ruleset.js";
import type { Modifier, RollOutcome } from "../rules/core/types.js";
import { formatDecimal } from "../rules/core/i18n.js";
import type { CardRules, CardSection } from "./play/card-rules.js";
import { buttonsFor, targetPhase, vitalSummary, type CardAction, type TargetPhase, type TargetState } from "./logic/card.js";

/** Localization functions, shaped like Foundry's `game.i18n.localize` and `game.i18n.format`. */
export interface Localizer {
  localize(key: string): string;
  format(key: string, data: Record<string, string>): string;
  /** Language code for number formatting (`en`, `de`); English style when absent. */
  lang?: string;
}

/** i18n keys of the UD10 attribute abbreviations, for data that names an attribute by id. */
const ATTRIBUTE_ABBR: Record<string, string> = {
  STR: "FRAY.Attribute.STR.abbr",
  DEX: "FRAY.Attribute.DEX.abbr",
  CON: "FRAY.Attribute.CON.abbr",
};

/** One itemized line of the card. */
export interface CardLine {
  /** Localized label, placeholders filled. */
  label: string;
  /** Signed value, e.g. `+3`, `-2`, `±0`. */
  value: string;
  /** Rule ID, e.g. `UD-ATK-01`. */
  rule: string;
}

/** One rolled die as the card shows it. */
export interface CardDie {
  faces: number;
  result: number;
  /** The die rolled its highest face (it explodes where the formula says so). */
  max: boolean;
  /** The die rolled a 1. */
  min: boolean;
}

/** A rolled check on the card: dice, modifier lines, total. */
export interface CardCheck {
  formula: string;
  dice: CardDie[];
  natural: number;
  lines: CardLine[];
  total: number;
}

/** Everything the attack card template renders. */
export interface AttackCardContext {
  attacker: string;
  target: string;
  weapon: string;
  mode?: string;
  /** Localized headline, e.g. "Ayla attacks the Bandit with Sabre". */
  headline: string;
  /** Range in metres when measured, formatted for the user's language, e.g. `12.5`. */
  range?: string;
  /** The range's unit in place of metres (Hitbox feet, from the ruleset's card view). */
  rangeUnit?: string;
  check: CardCheck;
  difficulty: { lines: CardLine[]; total: number; label: string };
  /** "12 vs 14". */
  comparison: string;
  hit: boolean;
  lands: boolean;
  /** CSS modifier of the outcome: `hit`, `miss`, `stopped`. */
  outcome: "hit" | "miss" | "stopped";
  /** Localized outcome, e.g. "Hit", "Miss", "Parried". */
  outcomeLabel: string;
  reaction?: { label: string; check: CardCheck; success: boolean; rule: string };
  location?: { label: string; rule: string; roll?: number };
  /** Chance to hit in percent, one decimal, formatted for the user's language. */
  odds?: string;
}

/** Names that the rules core's result refers to by id. */
export interface CardNames {
  attacker: string;
  target: string;
  weapon: string;
  mode?: string;
  /** Measured range in metres. */
  range?: number;
}

/** A signed number for a modifier column: `+3`, `-2`, `±0`. */
export function signed(value: number): string {
  if (value > 0) return `+${value}`;
  if (value < 0) return `\u2212${Math.abs(value)}`;
  return "\u00b10";
}

/**
 * Localizes the data of a message: values that are i18n keys (`FRAY.Skill.melee`) are
 * localized, an `attribute` given by id (`DEX`) becomes its localized abbreviation, everything
 * else becomes a string.
 */
export function localizeData(data: Record<string, string | number> | undefined, i18n: Pick<Localizer, "localize">): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(data ?? {})) {
    if (typeof value === "string" && /^FRAY\.[A-Za-z0-9_.]+$/.test(value)) out[key] = i18n.localize(value);
    else if (key === "attribute" && typeof value === "string" && ATTRIBUTE_ABBR[value]) out[key] = i18n.localize(ATTRIBUTE_ABBR[value]);
    else out[key] = String(value);
  }
  return out;
}

/** A number with one decimal in the user's language (`12.5`, `12,5`), as the core writes it. */
export function decimal(value: number, lang = "en"): string {
  return formatDecimal(value, lang);
}

/** One modifier as a card line. */
export function modifierLine(mod: Modifier, i18n: Localizer): CardLine {
  return { label: i18n.format(mod.label, localizeData(mod.data, i18n)), value: signed(mod.value), rule: mod.rule };
}

function cardDice(roll: RollOutcome): CardDie[] {
  return roll.dice.flatMap((term) =>
    term.results.map((result) => ({ faces: term.faces, result, max: result === term.faces, min: result === 1 })),
  );
}

function cardCheck(check: AttackResult["check"], i18n: Localizer): CardCheck {
  return {
    formula: check.roll.formula,
    dice: cardDice(check.roll),
    natural: check.natural,
    lines: check.modifiers.map((m) => modifierLine(m, i18n)),
    total: check.total,
  };
}

/**
 * Builds the attack card's view model from the rules core's result.
 * @param result the resolved attack.
 * @param names display names of attacker, target, weapon and mode; the range in metres.
 * @param i18n localization functions (`game.i18n` in Foundry).
 * @param odds exact odds computed before the roll, shown as the chance to hit.
 */
export function attackCardContext(result: AttackResult, names: CardNames, i18n: Localizer, odds?: AttackOdds): AttackCardContext {
  const { plan } = result;
  // A reaction that stopped the attack: after a hit (UD-REA-03), or by becoming the difficulty (HB-ATK-03).
  const reactionStopped = !result.lands && (result.hit || Boolean(result.reaction?.success));
  const outcome = result.lands ? "hit" : reactionStopped ? "stopped" : "miss";
  const outcomeLabel = result.lands
    ? i18n.localize("FRAY.Chat.Hit")
    : reactionStopped
      ? i18n.localize(result.reaction?.id === "dodge" ? "FRAY.Chat.Dodged" : "FRAY.Chat.Parried")
      : i18n.localize("FRAY.Chat.Miss");
  // The base of the difficulty is a starting value, not a modifier: shown without a sign.
  const base = { ...modifierLine(plan.difficulty.base, i18n), value: String(plan.difficulty.base.value) };
  const difficultyLines = [base, ...plan.difficulty.modifiers.map((m) => modifierLine(m, i18n))];
  const context: AttackCardContext = {
    attacker: names.attacker,
    target: names.target,
    weapon: names.weapon,
    mode: names.mode,
    headline: i18n.format(names.mode ? "FRAY.Chat.AttackHeadlineMode" : "FRAY.Chat.AttackHeadline", {
      attacker: names.attacker,
      target: names.target,
      weapon: names.weapon,
      mode: names.mode ?? "",
    }),
    range: names.range === undefined ? undefined : decimal(names.range, i18n.lang),
    check: cardCheck(result.check, i18n),
    difficulty: { lines: difficultyLines, total: plan.difficulty.total, label: i18n.localize("FRAY.Chat.Defense") },
    comparison: i18n.format("FRAY.Chat.Comparison", { total: String(result.check.total), difficulty: String(plan.difficulty.total) }),
    hit: result.hit,
    lands: result.lands,
    outcome,
    outcomeLabel,
  };
  if (result.reaction) {
    const r = result.reaction;
    context.reaction = {
      label: i18n.localize(r.id === "dodge" ? "FRAY.Reaction.dodge" : r.id === "block" ? "FRAY.Reaction.block" : "FRAY.Reaction.parry"),
      check: cardCheck(r.check, i18n),
      success: r.success,
      rule: r.rule,
    };
  }
  if (result.location) {
    context.location = { label: i18n.localize(result.location.label), rule: result.location.rule, roll: result.location.roll?.total };
  }
  if (odds) context.odds = decimal(odds.hit * 100, i18n.lang);
  return context;
}

/* -------------------------------------------------------------------------------------------- */
/* Per-target cards with their follow-up buttons                                                */
/* -------------------------------------------------------------------------------------------- */

/** A damage roll as the card shows it (UD-DMG-01). */
export interface CardDamage {
  formula: string;
  total: number;
  dice: CardDie[];
  location?: string;
  penetration: number;
  /** Rule ID of the damage: the packet's first step's, else the ruleset's (`CardRules.damageRule`), else UD-DMG-01. */
  rule: string;
}

/** One step of an application as the card shows it (UD-DMG-02 to UD-DMG-05). */
export interface CardStep {
  label: string;
  value: number;
  remaining: number;
  rule: string;
}

/** A button on the card, labelled. */
export interface CardButton {
  action: CardAction;
  label: string;
  rule: string;
  disabled: boolean;
  /** Localized reason a disabled button cannot be pressed. */
  reason?: string;
}

/** A row a ruleset adds to a target's section (a Zones burst's bullet with its hit zone, ZN-BST-01). */
export interface CardDetail {
  /** Localized label. */
  label: string;
  /** Localized value (a total, a hit zone). */
  value: string;
  /** Rule ID behind the row. */
  rule: string;
  /** Marks the row as a hit or a miss. */
  outcome?: "hit" | "miss";
}

/** A ruleset's extra rows of one target's section, localized with `i18n` (the binding's `cardRules.detail`). */
export type CardDetailBuilder = (t: TargetState, i18n: Localizer) => CardDetail[];

/** One target's section of the card. */
export interface TargetCardContext extends AttackCardContext {
  index: number;
  phase: TargetPhase;
  damage?: CardDamage;
  steps?: CardStep[];
  /** HP and EP after the application, `value/max`; the hitboxes it changed (Hitbox). */
  /** The tracks after the application; `hpLabel` names the `hp` track in the ruleset's words (HP, Critical's hits). */
  vitals?: { hp?: string; hpLabel?: string; ep?: string; hitboxes?: string };
  /** Conditions the application added, localized. */
  added?: string[];
  applied: boolean;
  undone: boolean;
  buttons: CardButton[];
  /** The ruleset's own rows ({@link CardDetailBuilder}), when it has any. */
  details?: CardDetail[];
  /** The ruleset's own sections (`CardRules.view`). */
  sections?: CardSection[];
  /** The checks the damage forced, as rolled (a Blackout test, HB-DMG-04). */
  forced?: CardForced[];
  /**
   * The folded target's line after the outcome, localized: where it landed, the damage rolled,
   * what the application did (tracks after it, conditions added, forced checks failed) or that
   * it was undone ({@link targetSummary}).
   */
  summary: string[];
}

/** A forced check as the card shows it: the check, the total needed, the outcome. */
export interface CardForced {
  label: string;
  rule: string;
  check: CardCheck;
  needed: number;
  success: boolean;
  /** Localized outcome: passed, or the conditions it added. */
  outcome: string;
}

/** The whole attack card: one section per target, and the language it was rendered in. */
export interface AttackMessageContext {
  /** Language code of the labels (`en`, `de`); each reader's client renders the card again in its own. */
  lang: string;
  targets: TargetCardContext[];
}

const GM_VIEW = { isGM: true, ownsAttacker: true, ownsTarget: true };

/**
 * One target's section: the itemized check against its defense, the outcome, the reaction,
 * the damage roll, the steps of the application, and the buttons the phase allows (each
 * client hides those its user may not press).
 */
export function targetCardContext(
  t: TargetState,
  index: number,
  names: Omit<CardNames, "target" | "range">,
  i18n: Localizer,
  rules: CardRules = {},
): TargetCardContext {
  const base = attackCardContext(t.result, { ...names, target: t.name, range: t.request.distanceMetres }, i18n, t.odds);
  const view = rules.view?.(t, i18n) ?? {};
  const context: TargetCardContext = {
    ...base,
    ...(view.outcomeLabel ? { outcomeLabel: view.outcomeLabel } : {}),
    ...(view.comparison ? { comparison: view.comparison } : {}),
    ...(view.sections?.length ? { sections: view.sections } : {}),
    ...(view.range && base.range !== undefined ? { range: view.range.value, rangeUnit: view.range.unit } : {}),
    summary: [],
    index,
    phase: targetPhase(t),
    applied: Boolean(t.applied),
    undone: Boolean(t.undone),
    buttons: buttonsFor(t, GM_VIEW)
      .filter((b) => b.visible && !view.hiddenActions?.includes(b.action))
      .map((b) => ({
        action: b.action,
        label: i18n.localize(view.buttonLabels?.[b.action] ?? b.label),
        rule: b.rule,
        disabled: b.disabled,
        reason: b.reason ? i18n.localize(b.reason) : undefined,
      })),
  };
  if (t.damage && !view.hideDamage) {
    const p = t.damage;
    const location =
      p.location === undefined ? undefined : t.result.location?.id === p.location ? t.result.location.label : `FRAY.Zone.${p.location}`;
    context.damage = {
      formula: p.roll.formula,
      total: p.amount,
      dice: cardDice(p.roll),
      location: location ? i18n.localize(location) : undefined,
      penetration: p.penetration ?? 0,
      rule: p.steps?.[0]?.rule ?? rules.damageRule ?? "UD-DMG-01",
    };
  }
  const steps = t.report?.steps ?? t.applied?.steps;
  if (steps) {
    context.steps = steps.map((s) => ({
      label: i18n.format(s.label, localizeData(s.data, i18n)),
      value: s.value,
      remaining: s.remaining,
      rule: s.rule,
    }));
  }
  const details = rules.detail?.(t, i18n);
  if (details?.length) context.details = details;
  if (t.forced?.length) {
    context.forced = t.forced.map((f) => {
      const added = f.report.added.map((c) => i18n.localize(`FRAY.Condition.${c}`));
      return {
        label: i18n.localize(f.forced.label),
        rule: f.forced.rule,
        check: cardCheck(f.check, i18n),
        needed: f.needed,
        success: f.success,
        outcome: f.success ? i18n.localize("FRAY.Flow.Card.Passed") : [i18n.localize("FRAY.Flow.Card.Failed"), ...added].join(" · "),
      };
    });
  }
  if (t.applied) {
    context.vitals = { ...vitalSummary(t.applied.after), hpLabel: i18n.localize(rules.hpLabel ?? "FRAY.Flow.Card.HP") };
    // Hitboxes the application changed (HB-DMG-01), `Head 1/2`.
    const before = t.applied.before.hitboxes ?? {};
    const changed = Object.entries(t.applied.after.hitboxes ?? {}).filter(([id, tr]) => before[id]?.value !== tr.value);
    if (changed.length)
      context.vitals.hitboxes = changed.map(([id, tr]) => `${i18n.localize(`FRAY.Hitbox.${id}`)} ${tr.value}/${tr.max}`).join(", ");
    context.added = t.applied.added.map((c) => i18n.localize(`FRAY.Condition.${c}`));
  }
  context.summary = targetSummary(context, i18n);
  return context;
}

/**
 * The parts of a target's summary line, after its outcome: the hit location (when the attack
 * lands), the damage rolled, then what the application did (the tracks after it, the hitboxes
 * it changed, the conditions it added, each forced check failed) or that it was undone.
 * Every part is already in the card's details; the summary only repeats them in one line.
 */
export function targetSummary(c: Omit<TargetCardContext, "summary">, i18n: Localizer): string[] {
  const out: string[] = [];
  if (c.lands && c.location) out.push(c.location.label);
  if (c.damage) out.push(i18n.format("FRAY.Flow.Card.SummaryDamage", { amount: String(c.damage.total) }));
  if (c.applied && c.vitals) {
    if (c.vitals.hp) out.push(`${c.vitals.hpLabel ?? i18n.localize("FRAY.Flow.Card.HP")} ${c.vitals.hp}`);
    if (c.vitals.ep) out.push(`${i18n.localize("FRAY.Flow.Card.EP")} ${c.vitals.ep}`);
    if (c.vitals.hitboxes) out.push(c.vitals.hitboxes);
    out.push(...(c.added ?? []));
  } else if (c.undone) out.push(i18n.localize("FRAY.Flow.Card.SummaryUndone"));
  for (const f of c.forced ?? []) if (!f.success) out.push(`${f.label}: ${i18n.localize("FRAY.Flow.Card.Failed")}`);
  return out;
}

/** The card of an attack on one or more targets; `rules` adds the ruleset's own rows, sections and labels. */
export function attackMessageContext(
  targets: readonly TargetState[],
  names: Omit<CardNames, "target" | "range">,
  i18n: Localizer,
  rules: CardRules = {},
): AttackMessageContext {
  return { lang: i18n.lang ?? "en", targets: targets.map((t, i) => targetCardContext(t, i, names, i18n, rules)) };
}
