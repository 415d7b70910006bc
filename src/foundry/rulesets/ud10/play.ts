/**
 * UD10's play pieces the generic pipeline asks its binding for, pure (no Foundry globals), so
 * tests use them as the bundle does: how NPCs group for initiative (UD-INI-02).
 */
import type { RulesetOptions } from "../../../rules/core/ruleset.js";
import { initiativeGroups, ud10, ud10Options, type Ud10Combatant } from "../../../rules/ud10/index.js";
import type { InitiativePlay } from "../../logic/initiative.js";

/** UD10 initiative for the tracker: the core's roll and order, NPCs grouped by the `npcInitiative` option (UD-INI-02). */
export const ud10Initiative: InitiativePlay<Ud10Combatant> = {
  ruleset: ud10,
  initiativeGroups: (members: Ud10Combatant[], options: RulesetOptions) => initiativeGroups(members, ud10Options(options)),
};
