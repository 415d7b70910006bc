/**
 * The four rulesets Fray ships, registered on the system's registry when this module loads:
 * UD10, Hitbox, Critical and Zones, in the order the settings list them.
 */
import { registry, type RulesetBinding } from "../registry.js";
import { criticalBinding } from "./critical/binding.js";
import { hitboxBinding } from "./hitbox/binding.js";
import { ud10Binding } from "./ud10/binding.js";
import { zonesBinding } from "./zones/binding.js";

/** The built-in bindings, in settings order. */
export const BINDINGS: readonly RulesetBinding<unknown>[] = [ud10Binding, hitboxBinding, criticalBinding, zonesBinding] as unknown as RulesetBinding<unknown>[];

for (const binding of BINDINGS) if (!registry.has(binding.id)) registry.register(binding);

export { registry };
