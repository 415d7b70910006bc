/**
 * The conditions the UD10 rules core reads from `actor.statuses` (UD-ATK-04, UD-DEF-01,
 * UD-ACT-02 ...), registered as Foundry status effects with localized names and core icons, so
 * the token HUD and the sheet's Conditions tab toggle the very ids the core checks.
 */

/** One condition: its status id, i18n key and a Foundry core icon. */
export interface ConditionSpec {
  id: string;
  name: string;
  img: string;
}

/** The conditions, in the order the sheet and the token HUD list them. */
export const CONDITIONS: readonly ConditionSpec[] = [
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
 * The status effect entries for `CONFIG.statusEffects`: `{ id, name, img }` with the name an
 * i18n key (Foundry localizes status names when it shows them). `dead` is also the defeated
 * status Foundry's combat tracker sets.
 */
export function statusEffects(): { id: string; name: string; img: string }[] {
  return CONDITIONS.map((c) => ({ id: c.id, name: c.name, img: c.img }));
}

/**
 * Replaces Foundry's default status effects with Fray's conditions and marks `dead` as the
 * defeated status. Call from the `init` hook.
 */
export function registerConditions(): void {
  const config = CONFIG as unknown as { statusEffects: unknown; specialStatusEffects?: Record<string, string> };
  config.statusEffects = statusEffects();
  if (config.specialStatusEffects) config.specialStatusEffects.DEFEATED = "dead";
}
