/**
 * The four rulesets Fray ships, registered on the system's registry when this module loads:
 * UD10, Hitbox, Critical and Zones, in the order the settings list them.
 */
import { guardForeign } from "../models/foreign.js";
import { registry, type RulesetBinding } from "../registry.js";
import { criticalBinding } from "./critical/binding.js";
import { hitboxBinding } from "./hitbox/binding.js";
import { ud10Binding } from "./ud10/binding.js";
import { zonesBinding } from "./zones/binding.js";

/** The built-in bindings, in settings order. */
export const BINDINGS: readonly RulesetBinding<unknown>[] = [
  ud10Binding,
  hitboxBinding,
  criticalBinding,
  zonesBinding,
] as unknown as RulesetBinding<unknown>[];

for (const binding of BINDINGS) {
  if (registry.has(binding.id)) continue;
  // Each model leaves actors and items of the other rulesets as they are stored.
  for (const model of Object.values(binding.models)) guardForeign(model, binding.id);
  registry.register(binding);
}

export { registry };
