/**
 * The attack workflow, the same for every ruleset: named stages from a weapon on a sheet to a
 * chat card, reading the world's ruleset from the registry (`activeBinding`) and the play
 * contract (src/rules/core/contract.ts), never a ruleset's own field names.
 *
 * Stages, in order (each a method, so a module can follow or replace one):
 * 1. `gather`: the attacker, its token, the targets, each distance measured on the canvas
 *    (measure.ts), every combatant through the binding;
 * 2. `configure`: the attack dialog generated from the ruleset's situation fields (skipped with
 *    Shift held, `skipDialog`, or choices given), else the request's values;
 *    then `Hooks.call("fray.preAttack", workflow)`: a handler returning `false` stops the attack;
 * 3. `pay`: the attacker's round economy must allow the attack (UD-ACT-02), unless it is free;
 * 4. `resolve`: per target the neutral request is planned and resolved by the core (`planStep`,
 *    `resolveAttack`) with real Rolls;
 * 5. `post`: the `attack` ChatMessage with the request and the core's results stored whole; the
 *    action is spent; the binding's `afterAttack` writes what the attack left on the attacker's
 *    documents; then `Hooks.callAll("fray.attack", workflow, outcome)`.
 * The card's buttons (react, damage, apply, undo) follow in chat/actions.ts.
 */
import type { AttackRequest as CoreRequest, SituationValues } from "../../rules/core/contract.js";
import type { AttackOdds, AttackResult, Ruleset, RulesetOptions } from "../../rules/core/ruleset.js";
import { openAttackDialog, dialogDefaults, type AttackDialogData, type DialogWeapon } from "../chat/attack-dialog.js";
import { renderAttackCard } from "../chat/attack-message.js";
import { combatantFor, economyOf, spendOn } from "../combat/economy-store.js";
import { FoundryRoller } from "../dice.js";
import { combatantOf } from "../documents/actor.js";
import type { AttackChoices } from "../logic/attack-options.js";
import { attackTarget } from "../logic/attack-state.js";
import type { TargetState } from "../logic/card.js";
import { actionEvent } from "../logic/economy.js";
import { decideAction } from "../logic/round-actions.js";
import { measureMetres } from "../measure.js";
import { error } from "../notify.js";
import { activeBinding, type RulesetBinding } from "../registry.js";
import { cardRulesOf } from "./card-rules.js";
import { optionValues } from "../settings.js";
import { callHook, callHookAll, HOOKS } from "./hooks.js";
import type { ItemSource } from "../../rules/core/sources.js";
import type { SheetI18n } from "../sheets/context.js";

/** What a token is to the workflow: its actor, its center for measuring, its document. */
export type TokenLike = Pick<Token.Implementation, "actor" | "center" | "document" | "name" | "id">;

/** An attack to make, as macros, sheets and the hotbar ask for it. */
export interface AttackRequest {
  /** The attacking actor. */
  actor: Actor.Implementation;
  /** Id of one of the actor's `weapon` items. */
  weaponId: string;
  /** The attacker's token; the actor's first active token on the scene when absent. */
  token?: TokenLike | null;
  /** The target's token; the user's targets when absent. */
  target?: TokenLike | null;
  /** Several targets, one check each; wins over `target`. */
  targets?: TokenLike[];
  /** Mode id (UD-RNG-02 firing mode). */
  modeId?: string;
  /** Situation values by field id (`Ruleset.situation`), for every target; no dialog opens. */
  situation?: SituationValues;
  /** The reaction the defender declared. */
  reaction?: string;
  /** Choices as the attack dialog returns them; when given, no dialog opens. */
  choices?: AttackChoices;
  /** Never open the attack dialog (as with Shift held). */
  skipDialog?: boolean;
  /** A free attack (fleeing, UD-OPT-01): it spends no action. */
  free?: boolean;
}

/** The outcome of an attack: the core's result (first target), the odds and the message posted. */
export interface AttackOutcome {
  result: AttackResult;
  odds?: AttackOdds;
  /** One result per target, in order. */
  results: AttackResult[];
  message: ChatMessage.Implementation | undefined;
}

/** One target as the workflow gathered it. */
export interface WorkflowTarget {
  token: TokenLike;
  /** The target's id in requests (its token's id). */
  id: string;
  name: string;
  actorUuid: string;
  tokenUuid: string;
  /** The core's combatant of the target, through the binding. */
  combatant: unknown;
  /** Distance from the attacker's token in metres, when both are on the scene. */
  distanceMetres?: number;
}

/** The stage a workflow is in. */
export type WorkflowStage = "new" | "gather" | "configure" | "pay" | "resolve" | "post" | "done" | "stopped";

/** The tokens the current user targets, in the order they were targeted. */
export function userTargets(): TokenLike[] {
  const targets = game.user?.targets;
  return targets ? (Array.from(targets) as unknown as TokenLike[]) : [];
}

/** The attacker's token: one of the actor's tokens the user controls, else its first active token. */
function attackerToken(actor: Actor.Implementation): TokenLike | undefined {
  const controlled = (canvas?.tokens?.controlled ?? []) as unknown as TokenLike[];
  const mine = controlled.find((t) => t.actor === actor);
  if (mine) return mine;
  const tokens = actor.getActiveTokens() as unknown as TokenLike[];
  return tokens[0];
}

/** True when Shift is held (the attack skips its dialog). */
function shiftHeld(): boolean {
  const keyboard = (game as unknown as { keyboard?: { isModifierActive?(key: string): boolean } }).keyboard;
  try {
    return Boolean(keyboard?.isModifierActive?.("Shift"));
  } catch {
    return false;
  }
}

/**
 * The weapon item as the dialog and the card name it: id, name, and its firing modes as the
 * ruleset's binding reads them off the item (`weaponModes`; none without).
 */
function weaponOf(actor: Actor.Implementation, weaponId: string, binding: RulesetBinding<unknown>): DialogWeapon {
  const items = actor.items as unknown as { get(id: string): unknown; find?(fn: (i: unknown) => boolean): unknown } | undefined;
  type Item = { id?: string | null; name?: string; type?: string; system?: unknown; toObject?(): unknown };
  const item = (items?.get(weaponId) ?? items?.find?.((i) => (i as Item).name === weaponId)) as Item | undefined;
  const source = (item?.toObject?.() ?? item) as ItemSource | undefined;
  return {
    id: item?.id ?? weaponId,
    name: item?.name ?? weaponId,
    modes: source && binding.weaponModes ? binding.weaponModes(source, game.i18n as unknown as SheetI18n) : [],
  };
}

/**
 * One attack through the named stages. `run()` plays them all; each stage returns `false` to
 * stop (a notification says why).
 */
export class AttackWorkflow {
  readonly request: AttackRequest;
  readonly binding: RulesetBinding<unknown>;
  readonly ruleset: Ruleset<unknown, unknown>;
  readonly options: RulesetOptions;
  stage: WorkflowStage = "new";
  token: TokenLike | undefined;
  /** The attacker's core combatant. */
  attacker: unknown;
  weapon: DialogWeapon;
  targets: WorkflowTarget[] = [];
  /** What the dialog or the request chose. */
  choices: AttackChoices | undefined;
  /** The attacker's tracker combatant whose round pays, when in combat and not free. */
  combatant: ReturnType<typeof combatantFor>;
  /** The card's targets, once resolved. */
  states: TargetState[] = [];
  results: AttackResult[] = [];
  odds: AttackOdds | undefined;
  rolls: Roll[] = [];
  message: ChatMessage.Implementation | undefined;

  constructor(request: AttackRequest, binding: RulesetBinding<unknown> = activeBinding()) {
    this.request = request;
    this.binding = binding;
    this.ruleset = binding.ruleset;
    this.options = optionValues(binding.id);
    this.weapon = weaponOf(request.actor, request.weaponId, binding);
  }

  /**
   * Gathers the attacker, its token and the targets with their distances.
   * @throws FrayError when an actor cannot be read by the ruleset.
   */
  gather(): boolean {
    this.stage = "gather";
    const r = this.request;
    const tokens = r.targets?.length ? r.targets : r.target ? [r.target] : userTargets();
    if (!tokens.length) {
      error("FRAY.Notify.NoTarget");
      return false;
    }
    for (const t of tokens) {
      if (!t.actor) {
        error("FRAY.Notify.TargetWithoutActor", { token: t.name });
        return false;
      }
    }
    this.token = r.token ?? attackerToken(r.actor);
    this.attacker = combatantOf(r.actor, this.token ? { id: this.token.id } : {}, this.binding);
    this.targets = tokens.map((t) => ({
      token: t,
      id: t.id,
      name: t.actor!.name ?? t.name,
      actorUuid: t.actor!.uuid,
      tokenUuid: t.document?.uuid ?? "",
      combatant: combatantOf(t.actor!, { id: t.id }, this.binding),
      distanceMetres: measureMetres(this.token, t),
    }));
    return true;
  }

  /** The dialog's data. */
  dialogData(): AttackDialogData {
    return {
      ruleset: this.ruleset,
      options: this.options,
      attacker: this.attacker,
      weapon: this.weapon,
      targets: this.targets.map((t) => ({ id: t.id, name: t.name, combatant: t.combatant, rangeMetres: t.distanceMetres })),
      modeId: this.request.modeId,
      units: this.binding.movementUnits,
      ...(this.binding.dialogDetails ? { details: this.binding.dialogDetails.bind(this.binding) } : {}),
    };
  }

  /** Whether the dialog opens: not when choices or values are given, Shift is held or DialogV2 is missing. */
  wantsDialog(): boolean {
    const r = this.request;
    if (r.choices || r.skipDialog || r.situation) return false;
    if (!foundry.applications?.api?.DialogV2) return false;
    return !shiftHeld();
  }

  /**
   * Configures the attack: the dialog, or the request's choices and values; then the
   * `fray.preAttack` hook. `false` when the dialog was closed, nothing is left to attack or a
   * handler stopped the attack.
   */
  async configure(): Promise<boolean> {
    this.stage = "configure";
    const r = this.request;
    let choices = r.choices;
    if (!choices && this.wantsDialog()) {
      const data = this.dialogData();
      choices = (await openAttackDialog(data, dialogDefaults(data))) ?? undefined;
      if (!choices) return false;
    }
    this.choices = choices ?? {
      targets: this.targets.map((t) => t.id),
      modeId: r.modeId,
      situation: Object.fromEntries(this.targets.map((t) => [t.id, { ...(r.situation ?? {}) }])),
      reaction: r.reaction,
    };
    const chosen = new Set(this.choices.targets);
    this.targets = this.targets.filter((t) => chosen.has(t.id));
    if (!this.targets.length) {
      error("FRAY.Notify.NoTarget");
      return false;
    }
    if (!callHook(HOOKS.preAttack, this)) {
      this.stage = "stopped";
      return false;
    }
    return true;
  }

  /** The round economy must allow the attack (UD-ACT-02); a free attack (UD-OPT-01) pays nothing. */
  pay(): boolean {
    this.stage = "pay";
    this.combatant = this.request.free ? undefined : combatantFor(this.request.actor, this.token?.id);
    if (this.combatant && this.binding.furtherAttackFree?.(economyOf(this.combatant))) this.combatant = undefined;
    // Weighed at the ruleset's own cost of an attack (CR-AP-01: 2 AP) where it lists one.
    let defs: ReturnType<Ruleset<unknown, unknown>["actions"]> | undefined;
    try {
      defs = this.ruleset.actions(this.attacker, this.options);
    } catch {
      defs = undefined;
    }
    const decision = decideAction(
      "attack",
      this.combatant ? economyOf(this.combatant) : undefined,
      defs?.some((a) => a.id === "attack") ? defs : undefined,
    );
    if (!decision.ok) {
      error(decision.key, { actor: this.request.actor.name ?? "", slot: `FRAY.Slot.${decision.short}` });
      return false;
    }
    return true;
  }

  /** The neutral request of one target. */
  coreRequest(t: WorkflowTarget): CoreRequest {
    const c = this.choices!;
    const request: CoreRequest = {
      attackerId: this.token?.id ?? this.request.actor.id ?? "attacker",
      targetId: t.id,
      weaponId: this.weapon.id,
    };
    if (c.modeId) request.modeId = c.modeId;
    if (t.distanceMetres !== undefined) request.distanceMetres = t.distanceMetres;
    if (c.situation[t.id]) request.situation = c.situation[t.id];
    if (c.reaction) request.reaction = c.reaction;
    const turn = cardRulesOf(this.binding.id).turnRequest;
    return turn ? turn(request, { actorUuid: t.actorUuid, tokenUuid: t.tokenUuid }) : request;
  }

  /**
   * Resolves one check per target through the core with real Rolls.
   * @throws FrayError when the core refuses the attack.
   */
  async resolve(): Promise<boolean> {
    this.stage = "resolve";
    const roller = new FoundryRoller();
    for (const t of this.targets) {
      const who = { actorUuid: t.actorUuid, tokenUuid: t.tokenUuid, name: t.name };
      const defender = combatantFor(t.token.actor, t.id);
      const economy = defender ? economyOf(defender) : undefined;
      const attacked = await attackTarget(
        this.ruleset,
        who,
        this.coreRequest(t),
        this.attacker,
        t.combatant,
        roller,
        this.options,
        economy,
      );
      this.odds ??= attacked.odds;
      this.results.push(attacked.result);
      this.states.push(attacked.state);
    }
    this.rolls = roller.rolls;
    return true;
  }

  /** Posts the card, spends the action, and calls `fray.attack`. */
  async post(): Promise<AttackOutcome> {
    this.stage = "post";
    const { actor } = this.request;
    const modeId = this.results[0]?.plan.modeId ?? this.choices?.modeId;
    const modeLabel = this.weapon.modes.find((m) => m.id === modeId)?.label;
    const system = {
      ruleset: this.binding.id,
      attackerUuid: actor.uuid,
      attackerTokenUuid: this.token?.document?.uuid ?? "",
      weaponId: this.weapon.id,
      weaponName: this.weapon.name,
      modeId: modeId ?? "",
      modeLabel: modeLabel ?? "",
      targets: this.states,
    };
    const content = await renderAttackCard({ ...system, attackerName: actor.name ?? "" });
    const data = {
      type: "attack",
      speaker: ChatMessage.getSpeaker({ actor, token: (this.token?.document ?? null) as never }),
      rolls: this.rolls,
      content,
      sound: CONFIG.sounds.dice,
      system,
    };
    ChatMessage.applyRollMode(data as never, game.settings.get("core", "rollMode") ?? "publicroll");
    // The create data is built by hand; the v13 typings want the full document source shape.
    this.message = (await ChatMessage.implementation.create(data as never)) ?? undefined;
    if (this.combatant) {
      const result = this.results[0];
      // The tracker reads the payer by its Combatant id; the stored result names its token.
      const own = result ? { ...result, plan: { ...result.plan, attackerId: this.combatant.id ?? result.plan.attackerId } } : undefined;
      const outcome = own ? { kind: "attack" as const, weaponId: this.weapon.id, result: own } : undefined;
      await spendOn(this.combatant, { ...actionEvent("attack"), ...(outcome ? { outcome } : {}) });
    }
    await this.binding.afterAttack?.({ actor, weaponId: this.weapon.id, results: this.results });
    this.stage = "done";
    const outcome: AttackOutcome = { result: this.results[0]!, odds: this.odds, results: this.results, message: this.message };
    callHookAll(HOOKS.attack, this, outcome);
    return outcome;
  }

  /**
   * Plays every stage.
   * @returns the outcome, or `undefined` when a stage stopped the attack.
   * @throws FrayError when the core refuses the attack.
   */
  async run(): Promise<AttackOutcome | undefined> {
    if (!this.gather()) return undefined;
    if (!(await this.configure())) return undefined;
    if (!this.pay()) return undefined;
    if (!(await this.resolve())) return undefined;
    return this.post();
  }
}
