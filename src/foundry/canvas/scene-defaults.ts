/**
 * New scenes take the grid of the world's ruleset (its binding's `movementUnits`): 5 ft squares in
 * a Hitbox world (HB-ACT-02, HB-MOD-01 measure in feet), 1.5 m in the others. A scene created
 * with a grid of its own (an import, a duplicate, a module) keeps it.
 */
import { activeBinding } from "../registry.js";

/** The grid a new scene takes, or `undefined` when its creation data gives distance or units. */
export function sceneGridDefaults(data: { grid?: { distance?: unknown; units?: unknown } | null } | undefined) {
  const grid = data?.grid;
  if (grid && (grid.distance !== undefined || grid.units !== undefined)) return undefined;
  const { units, gridDistance } = activeBinding().movementUnits;
  return { grid: { distance: gridDistance, units } };
}

/** The `preCreateScene` handler: writes the ruleset's grid into the new scene's source. */
export function onPreCreateScene(scene: { updateSource(changes: Record<string, unknown>): unknown }, data: unknown): void {
  const defaults = sceneGridDefaults(data as Parameters<typeof sceneGridDefaults>[0]);
  if (defaults) scene.updateSource(defaults);
}
