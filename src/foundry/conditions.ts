/**
 * The conditions of the world's ruleset as Foundry status effects. Each ruleset's core says
 * which conditions it reads from a combatant (`Ruleset.conditions()`: status id, i18n key, core
 * icon, whether it puts the combatant out of the fight); this module registers exactly those on
 * `CONFIG.statusEffects`, so the token HUD and the sheet's Conditions tab toggle the very ids
 * the core checks, and marks the defeated status the combat tracker sets.
 */
import type { Ruleset } from "../rules/core/ruleset.js";
import { activeBinding, type AnyBinding } from "./registry.js";

/** One status effect as `CONFIG.statusEffects` holds it: id, i18n key (`name`) and icon. */
export interface StatusEffectSpec {
  id: string;
  name: string;
  img: string;
}

/**
 * UD10's conditions as the system registered them before the registration read the ruleset;
 * kept as the reference list the UD10 core's `conditions()` is checked against.
 */
export const CONDITIONS: readonly StatusEffectSpec[] = [
  { id: "prone", name: "FRAY.Condition.prone", img: "icons/svg/falling.svg" },
  { id: "crouching", name: "FRAY.Condition.crouching", img: "icons/svg/downgrade.svg" },
  { id: "moving", name: "FRAY.Condition.moving", img: "icons/svg/wingfoot.svg" },
  { id: "immobilized", name: "FRAY.Condition.immobilized", img: "icons/svg/net.svg" },
  { id: "surprised", name: "FRAY.Condition.surprised", img: "icons/svg/daze.svg" },
  { id: "aiming1", name: "FRAY.Condition.aiming1", img: "icons/svg/target.svg" },
  { id: "aiming2", name: "FRAY.Condition.aiming2", img: "icons/svg/eye.svg" },
  { id: "unconscious", name: "FRAY.Condition.unconscious", img: "icons/svg/unconscious.svg" },
  { id: "incapacitated", name: "FRAY.Condition.incapacitated", img: "icons/svg/paralysis.svg" },
  { id: "dead", name: "FRAY.Condition.dead", img: "icons/svg/skull.svg" },
];

/**
 * The status effect entries of a ruleset's conditions, in the order its core lists them, with
 * the name an i18n key (Foundry localizes status names when it shows them).
 * @param binding the ruleset's binding; the world's by default.
 */
export function statusEffects(binding: AnyBinding = activeBinding()): StatusEffectSpec[] {
  return statusEffectsOf(binding.ruleset);
}

/**
 * The status effect entries of a rules-core ruleset's conditions (see {@link statusEffects}).
 * Pure: the sheets' context uses it without the registry.
 */
export function statusEffectsOf(ruleset: Pick<Ruleset<never, unknown>, "conditions">): StatusEffectSpec[] {
  return ruleset.conditions().map((c) => ({ id: c.id, name: c.label, img: c.icon }));
}

/**
 * The defeated status of a ruleset (Foundry's `CONFIG.specialStatusEffects.DEFEATED`): `dead`
 * when the ruleset has it, else the first condition that puts a combatant out of the fight;
 * undefined when it has neither.
 * @param binding the ruleset's binding; the world's by default.
 */
export function defeatedStatus(binding: AnyBinding = activeBinding()): string | undefined {
  const conditions = binding.ruleset.conditions();
  if (conditions.some((c) => c.id === "dead")) return "dead";
  return conditions.find((c) => c.out)?.id;
}

/**
 * The ruleset's out state of a core combatant: out of the fight when its vitals say so (the
 * core's `isOut`, as RULES.md reads each seed) or it carries a condition the ruleset marks `out`
 * (unconscious, shock, down, dead ...). Vitals that cannot be read go by the conditions alone.
 */
export function isOutOf(binding: AnyBinding, core: unknown): boolean {
  const ruleset = binding.ruleset as Ruleset<unknown, unknown>;
  try {
    if (ruleset.isOut(ruleset.vitals(core))) return true;
  } catch {
    // Vitals unreadable: go by conditions.
  }
  const conditions = (core as { conditions?: unknown } | null)?.conditions;
  if (!Array.isArray(conditions)) return false;
  return ruleset.conditions().some((c) => c.out && conditions.includes(c.id));
}

/**
 * Replaces Foundry's default status effects with the conditions of a ruleset and marks its
 * defeated status. Call from the `init` hook, after the settings are registered.
 * @param binding the ruleset's binding; the world's by default.
 */
export function registerConditions(binding: AnyBinding = activeBinding()): void {
  const config = CONFIG as unknown as { statusEffects: unknown; specialStatusEffects?: Record<string, string> };
  config.statusEffects = statusEffects(binding);
  const defeated = defeatedStatus(binding);
  if (defeated) (config.specialStatusEffects ??= {}).DEFEATED = defeated;
}
