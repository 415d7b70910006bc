import type { AttackRequest, SituationValues } from "../rules/core/contract.js";
import type { DiceRoller } from "../rules/core/dice/port.js";
import { RoundEngine, type AttackOptions } from "../rules/core/round.js";
import type { RulesetOptions } from "../rules/core/ruleset.js";
import {
  disengage,
  initiativeGroups,
  isIncapacitated,
  SQUARE_METRES,
  ud10,
  ud10Actions,
  ud10CombatantFromActor,
  ud10Options,
  type Ud10Combatant,
} from "../rules/ud10/index.js";
import { buildEntryCombatant, finishEncounter, recordingRoller, vitalsNow, type EndEvent, type PlayOptions } from "./common.js";
import type { EncounterContent } from "./library.js";
import type { ActionSpec, CombatantSpec, EncounterSpec } from "./schema.js";
import type { EncounterDriver, EncounterEvent, EncounterResult } from "./types.js";
import { chooseTarget, chooseWeapon, DEFAULT_TACTICS } from "./tactics.js";

interface Fighter {
  spec: CombatantSpec;
  c: Ud10Combatant;
}

/**
 * Builds the UD10 combatant of an encounter entry from its compendium reference, inline stats
 * and extra items.
 * @throws FrayError naming the field (`combatants[2].ref`, `combatants[0].stats.attributes`).
 */
export function buildCombatant(spec: CombatantSpec, index: number, content: EncounterContent, play?: PlayOptions): Ud10Combatant {
  return buildEntryCombatant(spec, index, content, ud10CombatantFromActor, undefined, play);
}

/** Out of the fight besides the core's vitals: unable to act (the core's out conditions) or fled. */
const outBeyondVitals = (c: Ud10Combatant) => isIncapacitated(c) || c.conditions.includes("fled");

/**
 * What each action of the core's round costs (UD-ACT-02, UD-ATK-04), by action id: set by the
 * options alone, the same for every combatant able to act, so a fight looks them up once.
 */
const actionCosts = (c: Ud10Combatant, options: RulesetOptions) =>
  new Map(ud10Actions({ ...c, conditions: [] }, options).map((a) => [a.id, a.cost]));

/**
 * Plays an encounter through the UD10 rules core on the core's round engine: initiative each
 * round (or once, UD-INI-03), each combatant's declared action or its tactics, reactions, body
 * zones, damage, until one side is down or `maxRounds` is reached. The driver keeps the file's
 * actions, the tactics (targets, engagement, disengaging) and the log. Deterministic for a given
 * file and seed.
 * @param dice defaults to the file's scripted faces followed by the seeded roller.
 * @param play quiet mode and shared combatants for a forecast ({@link PlayOptions}).
 * @throws FrayError when the file names something that does not exist.
 */
export async function playUd10(
  spec: EncounterSpec,
  content: EncounterContent,
  dice?: DiceRoller,
  play: PlayOptions = {},
): Promise<EncounterResult> {
  const options: RulesetOptions = { ...ud10.defaults(), ...spec.options };
  const opts = ud10Options(options);
  const { logged, history } = recordingRoller(spec, dice, play);
  const specs = new Map(spec.combatants.map((cs) => [cs.id, cs]));
  const engine = new RoundEngine(
    ud10,
    spec.combatants.map((cs, i) => ({ id: cs.id, side: cs.side, combatant: buildCombatant(cs, i, content, play) })),
    logged,
    {
      options,
      maxRounds: spec.maxRounds,
      out: outBeyondVitals,
      groups: (standing) => initiativeGroups(standing, opts),
      lazyOdds: play.quiet,
      keepEvents: !play.quiet,
    },
  );
  const start = vitalsNow(engine, ud10.vitals);
  const fighter = (id: string): Fighter => ({ spec: specs.get(id)!, c: engine.get(id).combatant });
  const events: EncounterEvent[] = [];
  const engaged = new Set<string>();
  const pair = (a: string, b: string) => [a, b].sort().join("|");
  const isOut = (f: Fighter) => engine.isOut(f.spec.id);
  let costs: ReturnType<typeof actionCosts> | undefined;
  const costOf = (c: Ud10Combatant, id: string) => (costs ??= actionCosts(c, options)).get(id)!;

  let round = 0;

  const attack = async (f: Fighter, action: ActionSpec, free = false): Promise<void> => {
    const declared = action.attack ? fighter(action.attack) : undefined;
    // The weapon and target the tactics choose (declared first, see tactics.ts).
    const weaponRef = chooseWeapon(DEFAULT_TACTICS.weapon, {
      declared: action.weapon,
      tactics: f.spec.tactics?.weapon,
      weapons: f.c.weapons,
    });
    const meleeWeapon = f.c.weapons.find((w) => w.id === weaponRef || w.name === weaponRef)?.kind === "melee";
    const enemies = engine.enemiesOf(f.spec.id).map((o) => fighter(o.id));
    const engagedFoe = meleeWeapon ? enemies.find((o) => engaged.has(pair(f.spec.id, o.spec.id))) : undefined;
    const target = chooseTarget(DEFAULT_TACTICS.target, {
      declared: declared && !isOut(declared) ? declared : undefined,
      engaged: engagedFoe,
      enemies,
    });
    if (!target) return;
    if (declared && target.spec !== declared.spec)
      events.push({ type: "retarget", round, actor: f.spec.id, from: declared.spec.id, to: target.spec.id });
    if (!weaponRef) {
      events.push({ type: "skip", round, actor: f.spec.id, reason: "FRAY.Log.NoWeapon" });
      return;
    }
    const weapon = f.c.weapons.find((w) => w.id === weaponRef || w.name === weaponRef);
    const range = action.range ?? f.spec.tactics?.range ?? (weapon?.kind === "melee" ? SQUARE_METRES : undefined);
    const request: AttackRequest = {
      attackerId: f.c.id,
      targetId: target.c.id,
      weaponId: weaponRef,
      modeId: action.mode ?? (action.weapon === undefined ? f.spec.tactics?.mode : undefined),
      distanceMetres: range,
      situation: { ...(f.spec.tactics?.situation ?? {}), ...(action.situation ?? {}) } as SituationValues,
    };
    const react = target.spec.react && target.spec.react !== "none" ? target.spec.react : undefined;
    const attackOptions: AttackOptions = {
      free,
      cost: costOf(f.c, "attack"),
      react: react ? (available) => available.find((r) => r.id === react)?.id : undefined,
    };
    // A forecast reads no detail of the attack: it is played quietly, with the same outcome.
    if (play.quiet && engine.canQuiet) {
      const quiet = await engine.quietAttack(request, attackOptions);
      if (!quiet) return;
      const w = engine.get(f.spec.id).combatant.weapons.find((x) => x.id === quiet.attack.weaponId)!;
      if (w.kind === "melee") engaged.add(pair(f.spec.id, target.spec.id));
      return;
    }
    const done = await engine.attack(request, attackOptions);
    if (!done) {
      events.push({ type: "skip", round, actor: f.spec.id, reason: "FRAY.Log.NoAction" });
      return;
    }
    const { plan, result, packet, report } = done.step;
    const w = engine.get(f.spec.id).combatant.weapons.find((x) => x.id === plan.weaponId)!;
    if (w.kind === "melee") engaged.add(pair(f.spec.id, target.spec.id));
    if (play.quiet) return;
    events.push({
      type: "attack",
      round,
      attacker: f.spec.id,
      target: target.spec.id,
      weapon: w.name,
      mode: plan.modeId,
      range,
      plan,
      odds: done.step.odds,
      result,
      free,
    });
    if (packet && report) events.push({ type: "damage", round, target: target.spec.id, packet, report });
  };

  const act = async (id: string, action: ActionSpec): Promise<void> => {
    const f = fighter(id);
    if (action.wait) {
      events.push({ type: "skip", round, actor: id, reason: "FRAY.Log.Waits" });
      return;
    }
    if (action.disengage) {
      const foes = engine.all().filter((o) => !engine.isOut(o.id) && engaged.has(pair(id, o.id)));
      const d = disengage(
        foes.map((o) => o.combatant),
        action.disengage,
        opts,
      );
      engine.act(id, d.mode, d.cost);
      events.push({ type: "disengage", round, actor: id, mode: d.mode, freeAttacks: d.freeAttacks, rule: d.rule });
      for (const o of foes) engaged.delete(pair(id, o.id));
      for (const foe of d.freeAttacks) {
        const o = fighter(foe);
        const melee = o.c.weapons.find((w) => w.kind === "melee");
        if (melee && !engine.isOut(id)) await attack(o, { attack: id, weapon: melee.id, range: SQUARE_METRES }, true);
      }
      const now = engine.get(id).combatant;
      if (d.mode === "flee" && !engine.isOut(id)) engine.update(id, { ...now, conditions: [...now.conditions, "fled"] });
      return;
    }
    if (action.move !== undefined) {
      const band = ud10.movementBand(f.c, action.move, options);
      if (!band || !engine.pay(id, "move", band.cost)) {
        events.push({ type: "skip", round, actor: id, reason: "FRAY.Log.TooFar", data: { metres: action.move } });
      } else {
        events.push({ type: "move", round, actor: id, metres: action.move, band: band.label, rule: band.rule });
      }
    }
    if (action.aim) {
      const aimed = engine.act(id, "aim", costOf(engine.get(id).combatant, "aim"));
      if (!aimed) {
        events.push({ type: "skip", round, actor: id, reason: "FRAY.Log.NoAction" });
        return;
      }
      const rounds = aimed.find((e) => e.data?.rounds !== undefined);
      events.push({ type: "aim", round, actor: id, rounds: Number(rounds?.data?.rounds) });
      return;
    }
    if (action.attack !== undefined || action.move === undefined) await attack(fighter(id), action);
  };

  let ended: EndEvent | undefined;
  while (!ended) {
    round = engine.nextRound();
    events.push({ type: "round", round, seconds: opts.roundSeconds });
    const init = await engine.rollInitiative();
    events.push({ type: "initiative", round, rolls: init.rolls, order: init.order, kept: init.kept });
    engine.startRound();
    for (const id of engine.turns()) await act(id, spec.rounds[round - 1]?.[id] ?? specs.get(id)!.tactics ?? {});
    const over = engine.isOver();
    if (over) ended = { type: "end", ...over };
  }
  const fighters = spec.combatants.map((cs) => fighter(cs.id));
  return finishEncounter(
    spec,
    options,
    ended,
    fighters,
    { vitals: (f) => ud10.vitals(f.c), isOut, start },
    play.quiet ? [] : events,
    history,
  );
}

/** The UD10 encounter driver: actions `attack`, `aim`, `move`, `disengage`, `wait`; reactions parry and dodge. */
export const ud10Driver: EncounterDriver = {
  ruleset: "ud10",
  actionKeys: ["aim", "move", "disengage"],
  combatantKeys: [],
  reactions: ["parry", "dodge", "none"],
  play: playUd10,
};
