import type { ActionOutcome, AttackRequest, SituationValues } from "../rules/core/contract.js";
import { createEconomy, shortfall, spend, type Economy } from "../rules/core/economy.js";
import type { DiceRoller } from "../rules/core/dice/port.js";
import type { InitiativeRoll, RulesetOptions } from "../rules/core/ruleset.js";
import { attackInput, planStep } from "../rules/core/step.js";
import {
  disengage,
  initiativeGroups,
  isIncapacitated,
  SQUARE_METRES,
  ud10,
  ud10Actions,
  ud10AfterAction,
  ud10CombatantFromActor,
  ud10Options,
  ud10StartRound,
  ud10WithVitals,
  type Ud10Combatant,
} from "../rules/ud10/index.js";
import { buildEntryCombatant, finishEncounter, recordingRoller, sideDown, standingSides, type EndEvent } from "./common.js";
import type { ContentIndex } from "./content.js";
import type { ActionSpec, CombatantSpec, EncounterSpec } from "./schema.js";
import type { EncounterDriver, EncounterEvent, EncounterResult } from "./types.js";

interface Fighter {
  spec: CombatantSpec;
  c: Ud10Combatant;
  economy: Economy;
}

/**
 * Builds the UD10 combatant of an encounter entry from its compendium reference, inline stats
 * and extra items.
 * @throws FrayError naming the field (`combatants[2].ref`, `combatants[0].stats.attributes`).
 */
export function buildCombatant(spec: CombatantSpec, index: number, content: ContentIndex): Ud10Combatant {
  return buildEntryCombatant(spec, index, content, ud10CombatantFromActor);
}

/** Out of the encounter: down by the core's vitals, unable to act (the core's out conditions), or fled. */
const isOut = (f: Fighter) => ud10.isOut(ud10.vitals(f.c)) || isIncapacitated(f.c) || f.c.conditions.includes("fled");

/** What an action of the core's round costs (UD-ACT-02, UD-ATK-04). */
const costOf = (c: Ud10Combatant, id: string, options: RulesetOptions) => ud10Actions({ ...c, conditions: [] }, options).find((a) => a.id === id)!.cost;

/**
 * Plays an encounter through the UD10 rules core: initiative each round (or once, UD-INI-03),
 * each combatant's declared action or its tactics, reactions, body zones, damage, until one side
 * is down or `maxRounds` is reached. Deterministic for a given file and seed.
 * @param dice defaults to the file's scripted faces followed by the seeded roller.
 * @throws FrayError when the file names something that does not exist.
 */
export async function playUd10(spec: EncounterSpec, content: ContentIndex, dice?: DiceRoller): Promise<EncounterResult> {
  const options: RulesetOptions = { ...ud10.defaults(), ...spec.options };
  const opts = ud10Options(options);
  const { logged, history } = recordingRoller(spec, dice);
  const fighters = new Map<string, Fighter>();
  spec.combatants.forEach((cs, i) => {
    const c = buildCombatant(cs, i, content);
    fighters.set(cs.id, { spec: cs, c, economy: createEconomy(ud10.economy(c, options)) });
  });
  const events: EncounterEvent[] = [];
  const engaged = new Set<string>();
  const pair = (a: string, b: string) => [a, b].sort().join("|");
  const enemiesOf = (f: Fighter) => [...fighters.values()].filter((o) => o.spec.side !== f.spec.side && !isOut(o));

  let order: InitiativeRoll[] = [];
  let round = 0;
  let ended: EndEvent | undefined;

  /** The core's lifecycle after an action (UD-ATK-04: the aim set, spent or lost). */
  const after = (f: Fighter, outcome: ActionOutcome) => {
    const next = ud10AfterAction(f.c, outcome, f.economy, options);
    f.c = next.combatant;
    f.economy = next.economy;
    return next;
  };

  const attack = async (f: Fighter, action: ActionSpec, free = false): Promise<void> => {
    const declared = action.attack ? fighters.get(action.attack) : undefined;
    const weaponRefFirst = action.weapon ?? f.spec.tactics?.weapon ?? f.c.weapons[0]?.id;
    const meleeWeapon = f.c.weapons.find((w) => w.id === weaponRefFirst || w.name === weaponRefFirst)?.kind === "melee";
    const enemies = enemiesOf(f);
    const engagedFoe = meleeWeapon ? enemies.find((o) => engaged.has(pair(f.spec.id, o.spec.id))) : undefined;
    const target = declared && !isOut(declared) ? declared : (engagedFoe ?? enemies[0]);
    if (!target) return;
    if (declared && target !== declared) events.push({ type: "retarget", round, actor: f.spec.id, from: declared.spec.id, to: target.spec.id });
    const weaponRef = action.weapon ?? f.spec.tactics?.weapon ?? f.c.weapons[0]?.id;
    if (!weaponRef) {
      events.push({ type: "skip", round, actor: f.spec.id, reason: "FRAY.Log.NoWeapon" });
      return;
    }
    const weapon = f.c.weapons.find((w) => w.id === weaponRef || w.name === weaponRef);
    const attackCost = costOf(f.c, "attack", options);
    if (!free && shortfall(f.economy, attackCost)) {
      events.push({ type: "skip", round, actor: f.spec.id, reason: "FRAY.Log.NoAction" });
      return;
    }
    const range = action.range ?? f.spec.tactics?.range ?? (weapon?.kind === "melee" ? SQUARE_METRES : undefined);
    const request: AttackRequest = {
      attackerId: f.c.id,
      targetId: target.c.id,
      weaponId: weaponRef,
      modeId: action.mode ?? (action.weapon === undefined ? f.spec.tactics?.mode : undefined),
      distanceMetres: range,
      situation: { ...(f.spec.tactics?.situation ?? {}), ...(action.situation ?? {}) } as SituationValues,
    };
    if (target.spec.react && target.spec.react !== "none") {
      const option = ud10.reactions(attackInput(ud10, request, f.c, target.c, options), target.economy, options).find((r) => r.id === target!.spec.react);
      if (option?.available) request.reaction = option.id;
    }
    const { input, plan, odds } = planStep(ud10, request, f.c, target.c, options, target.economy);
    const result = await ud10.resolveAttack(plan, input, logged, options);
    if (!free) f.economy = spend(f.economy, attackCost);
    if (result.reaction && plan.reaction) target.economy = spend(target.economy, plan.reaction.cost);
    after(f, { kind: "attack", weaponId: plan.weaponId, modeId: plan.modeId, result });
    const w = f.c.weapons.find((x) => x.id === plan.weaponId)!;
    if (w.kind === "melee") engaged.add(pair(f.spec.id, target.spec.id));
    events.push({ type: "attack", round, attacker: f.spec.id, target: target.spec.id, weapon: w.name, mode: plan.modeId, range, plan, odds, result, free });
    if (!result.lands) return;
    const packet = await ud10.rollDamage(result, input, logged, options);
    const report = ud10.applyDamage(target.c, packet, options);
    target.c = ud10WithVitals(target.c, report.after);
    events.push({ type: "damage", round, target: target.spec.id, packet, report });
  };

  const act = async (f: Fighter, action: ActionSpec): Promise<void> => {
    if (action.wait) {
      events.push({ type: "skip", round, actor: f.spec.id, reason: "FRAY.Log.Waits" });
      return;
    }
    if (action.disengage) {
      const foes = [...fighters.values()].filter((o) => !isOut(o) && engaged.has(pair(f.spec.id, o.spec.id)));
      const d = disengage(foes.map((o) => o.c), action.disengage, opts);
      f.economy = spend(f.economy, d.cost);
      after(f, { kind: "action", id: d.mode });
      events.push({ type: "disengage", round, actor: f.spec.id, mode: d.mode, freeAttacks: d.freeAttacks, rule: d.rule });
      for (const o of foes) engaged.delete(pair(f.spec.id, o.spec.id));
      for (const id of d.freeAttacks) {
        const o = fighters.get(id)!;
        const melee = o.c.weapons.find((w) => w.kind === "melee");
        if (melee && !isOut(f)) await attack(o, { attack: f.spec.id, weapon: melee.id, range: SQUARE_METRES }, true);
      }
      if (d.mode === "flee" && !isOut(f)) f.c = { ...f.c, conditions: [...f.c.conditions, "fled"] };
      return;
    }
    if (action.move !== undefined) {
      const band = ud10.movementBand(f.c, action.move, options);
      if (!band || shortfall(f.economy, band.cost)) {
        events.push({ type: "skip", round, actor: f.spec.id, reason: "FRAY.Log.TooFar", data: { metres: action.move } });
      } else {
        f.economy = spend(f.economy, band.cost);
        events.push({ type: "move", round, actor: f.spec.id, metres: action.move, band: band.label, rule: band.rule });
      }
    }
    if (action.aim) {
      const aimCost = costOf(f.c, "aim", options);
      if (shortfall(f.economy, aimCost)) {
        events.push({ type: "skip", round, actor: f.spec.id, reason: "FRAY.Log.NoAction" });
        return;
      }
      f.economy = spend(f.economy, aimCost);
      const aimed = after(f, { kind: "action", id: "aim" }).events.find((e) => e.data?.rounds !== undefined);
      events.push({ type: "aim", round, actor: f.spec.id, rounds: Number(aimed?.data?.rounds) });
      return;
    }
    if (action.attack !== undefined || action.move === undefined) await attack(f, action);
  };

  for (round = 1; round <= spec.maxRounds; round++) {
    events.push({ type: "round", round, seconds: opts.roundSeconds });
    const standing = [...fighters.values()].filter((f) => !isOut(f));
    if (round === 1 || ud10.initiativeTiming(options) === "round") {
      const rolls: InitiativeRoll[] = [];
      for (const group of initiativeGroups(standing.map((f) => f.c), opts)) rolls.push(await ud10.rollInitiative(group, logged));
      order = ud10.order(rolls);
      events.push({ type: "initiative", round, rolls: order, order: order.flatMap((r) => r.members), kept: false });
    } else {
      events.push({ type: "initiative", round, rolls: order, order: order.flatMap((r) => r.members), kept: true });
    }
    for (const f of fighters.values()) {
      const start = ud10StartRound(f.c, round === 1 ? undefined : f.economy);
      f.c = start.combatant;
      f.economy = start.economy;
    }
    for (const id of order.flatMap((r) => r.members)) {
      const f = fighters.get(id)!;
      if (isOut(f)) continue;
      const action = spec.rounds[round - 1]?.[id] ?? f.spec.tactics ?? {};
      await act(f, action);
      if (standingSides(fighters.values(), isOut).size <= 1) break;
    }
    ended = sideDown(fighters.values(), isOut, round);
    if (ended) break;
  }
  return finishEncounter(spec, options, ended, fighters.values(), { vitals: (f) => ud10.vitals(f.c), isOut }, events, history);
}

/** The UD10 encounter driver: actions `attack`, `aim`, `move`, `disengage`, `wait`; reactions parry and dodge. */
export const ud10Driver: EncounterDriver = {
  ruleset: "ud10",
  actionKeys: ["aim", "move", "disengage"],
  combatantKeys: [],
  reactions: ["parry", "dodge", "none"],
  play: playUd10,
};
