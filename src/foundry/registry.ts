/**
 * The registry of ruleset bindings: what the one Foundry pipeline needs of each ruleset that
 * cannot be generic. A binding pairs a rules-core {@link Ruleset} with its data models, the
 * translation of a Foundry actor into the core's combatant, its sheet parts and templates, and
 * the units its scenes measure movement in. The pipeline reads the world's binding from here
 * ({@link activeBinding}) and never names a ruleset's fields itself.
 *
 * Each ruleset registers from its own folder, `src/foundry/rulesets/<id>/binding.ts`.
 */
import type { ActionDef } from "../rules/core/contract.js";
import type { ActionCost, Economy } from "../rules/core/economy.js";
import type { AttackOdds, AttackPlan, AttackResult, MovementBand, Ruleset, RulesetOptions } from "../rules/core/ruleset.js";
import type { ActorSource, ItemSource } from "../rules/core/sources.js";
import { RULESET_SETTING, SYSTEM_ID, type RulesetChoice } from "./config.js";
import type { CardRules } from "./play/card-rules.js";
import type { RequestHandler } from "./queries.js";
import type { Quench } from "./quench.js";
import type { ActorContextBuilder, ItemContextBuilder, SheetI18n } from "./sheets/context.js";
import type { DelayRule } from "./logic/delay.js";

/** The data model classes of one ruleset, by document subtype (`CONFIG.Actor/Item.dataModels`). */
export interface RulesetModels {
  character: unknown;
  npc: unknown;
  weapon: unknown;
  armor: unknown;
}

/**
 * The units a ruleset's scenes measure in: new scenes' grid default, and what the ruler shows.
 * The core's movement bands are always in metres; {@link metresPerUnit} converts.
 */
export interface MovementUnits {
  /** The grid unit of new scenes (`m`, `ft`). */
  units: "m" | "ft";
  /** Metres per one `units` (1 for metres, 0.3048 for feet). */
  metresPerUnit: number;
  /** Size of one grid square in `units` (UD-RND-02: 1.5 m). */
  gridDistance: number;
}

/** A token in a melee that a move leaves, as {@link RulesetBinding.onLeaveMelee} reads it. */
export interface MeleeToken<C> {
  /** The core's combatant (its id is the token's). */
  combatant: C;
  name: string;
  tokenUuid: string;
  actorUuid: string;
}

/** A move that leaves engaged melee opponents behind. */
export interface LeaveMelee<C> {
  mover: MeleeToken<C>;
  /** The engaged opponents no longer adjacent after the move, at least one. */
  left: MeleeToken<C>[];
  options: RulesetOptions;
}

/** What leaving melee turned out to be. */
export interface LeaveMeleeOutcome {
  /** The disengagement's action id (kind `move`), its cost folded into the move's charge. */
  disengage?: string;
  /** Posts what follows once the move is paid (a free-attack prompt, a chat line). */
  after?(): Promise<void>;
}

/**
 * One line the attack dialog shows under a target's odds, from the ruleset's core: a modifier or
 * total (`kind: "line"`, `value` a signed number) or the exact chance of an outcome
 * (`kind: "chance"`, `value` in [0, 1], shown as a percentage).
 */
export interface DialogDetail {
  kind: "line" | "chance";
  /** i18n key of the label; its data values may be i18n keys too. */
  label: string;
  data?: Record<string, string | number>;
  value: number;
  rule?: string;
}

/**
 * The token bars of a ruleset's actors: paths under `system`, each a `{ value, max }` pool. `bar1`
 * and `bar2` are what new actors' prototype tokens show (null: no bar); `bars` and `values` are
 * what a token's configuration offers (`CONFIG.Actor.trackableAttributes`).
 */
export interface TokenBars {
  readonly bar1: string | null;
  readonly bar2: string | null;
  /** Every pool a token may show as a bar, `bar1` and `bar2` among them. */
  readonly bars: readonly string[];
  /** Plain numbers a token may show as a value. */
  readonly values: readonly string[];
}

/** One firing mode of a weapon: the id a request names (`modeId`) and its localized label. */
export interface WeaponMode {
  id: string;
  label: string;
}

/** Overrides of the combatant a document becomes: the tracker's id, an initiative group. */
export type CombatantOverrides = Partial<{ id: string; group: string }>;

/** A button of the token HUD: its id (`data-fray-hud`), Font Awesome icon classes, i18n label and what it does. */
export interface HudButton {
  id: string;
  icon: string;
  label: string;
  run(): Promise<unknown>;
}

/**
 * One ruleset as the Foundry pipeline plays it.
 * @typeParam C the rules core's combatant shape of this ruleset.
 */
export interface RulesetBinding<C = unknown> {
  /** The ruleset id (same as `ruleset.id`). */
  readonly id: RulesetChoice;
  /** The rules core's ruleset. */
  readonly ruleset: Ruleset<C, unknown>;
  /** True when attacks, the card and the tracker play this ruleset in Foundry already. */
  readonly implemented: boolean;
  /** The data model classes registered for `character`, `npc`, `weapon` and `armor`. */
  readonly models: RulesetModels;
  /**
   * The core's combatant of an actor source (an Actor's `toObject()` with its statuses).
   * @throws FrayError when the source cannot be read or belongs to another ruleset.
   */
  combatantFromActor(actor: ActorSource, overrides?: CombatantOverrides): C;
  /**
   * The groups that roll initiative together under the options (UD-INI-02, CR-INI-01); absent
   * when each combatant rolls alone.
   */
  initiativeGroups?(members: C[], options: RulesetOptions): C[][];
  /**
   * The ruleset's delay rule (CR-INI-03: act later in the order, never earlier): given the
   * round's order of Combatant ids, the order once `id` acts right after `after`; throws to
   * refuse. The tracker sorts each round's delays (`flags.fray.delay`) through it. Absent when
   * the ruleset has no delaying.
   */
  delay?: DelayRule;
  /**
   * The charge of a move in the round's economy (UD-MOV-02, UD-MOV-03): metres moved this round
   * before and after it, with `also` (a disengagement's cost, UD-OPT-01, UD-OPT-02) folded in.
   * Absent to charge through the ruleset's movement bands.
   */
  moveCharge?(
    c: C,
    fromMetres: number,
    toMetres: number,
    more: { also: ActionCost; paid?: ActionCost },
    options: RulesetOptions,
  ): ActionCost;
  /**
   * What moving away from engaged melee opponents does in this ruleset (UD-OPT-01 fleeing, each
   * left opponent gets a free attack; UD-OPT-02 retreat, the whole round): asks the mover's user
   * where a choice is needed and says which disengagement the move is (an action id of kind
   * `move`, whose cost the move's charge takes in) and what to post once the move is paid.
   * Absent when leaving melee costs nothing extra.
   */
  onLeaveMelee?(leave: LeaveMelee<C>): Promise<LeaveMeleeOutcome | undefined>;
  /**
   * The actions of a combatant able to act, for views that read no combatant (the sheet's Actions
   * row, UD-ACT-02); absent when such views offer none.
   */
  standingActions?(options: RulesetOptions): ActionDef[];
  /**
   * True when an attack costs nothing more in the round as it stands (Hitbox HB-MOD-03: a further
   * shot of a turn whose action already went to shooting); absent when every attack pays.
   */
  furtherAttackFree?(economy: Economy): boolean;
  /**
   * Writes what the start of a new round does to one combatant's actor beyond its economy
   * (Hitbox: whoever dropped to dodge now lies prone, the count of turns in shock, HB-ACT-04,
   * HB-DMG-04), from the core's `startRound`; called by the GM's client as the round advances.
   * Absent when the round's start changes nothing on the actor.
   */
  startRoundOn?(actor: unknown, round: number, options: RulesetOptions): Promise<void>;
  /**
   * Writes what a new combat's start does to one combatant's actor (Critical: a parry split left
   * from an earlier combat ends, CR-PAR-01); called by the GM's client as the combat starts.
   * Absent when the start changes nothing on the actor.
   */
  startCombatOn?(actor: unknown, options: RulesetOptions): Promise<void>;
  /**
   * After initiative was rolled through the core for these actors (the tracker's roll, or a new
   * round's re-roll on the GM's client), on the client that rolled: what the roll used up is
   * written back (Zones: the effort points committed, ZN-INI-02).
   */
  afterInitiative?(actors: readonly unknown[], options: RulesetOptions): Promise<void>;
  /**
   * Why an actor's combatant does not roll initiative for a round (Zones: surprised in the first
   * round, ZN-SUR-01): the i18n key of the warning (`{name}`), or undefined when it rolls. `round`
   * is the round the roll is for (0 or 1 before and in the first round). Absent: everyone rolls.
   */
  initiativeRefusal?(actor: unknown, round: number, options: RulesetOptions): string | undefined;
  /**
   * The ruleset's own buttons in the token HUD for an actor as it stands, shown to whoever sees
   * the HUD (play/token-hud.ts; Critical: first aid to a dying combatant, CR-DTH-01). Absent: none.
   */
  hudButtons?(actor: unknown): HudButton[];
  /**
   * Rounds before an effect started in play acts when its starter gives no delay (Hitbox
   * HB-RND-02: durations in turns start the turn after they begin); absent for none.
   */
  readonly effectDelayRounds?: number;
  /**
   * How this ruleset's combatants declare in the declaration phase beyond one action and free
   * text (HB-ACT-01, HB-ACT-03): the action ids declared as quick actions beside the one action
   * (checkboxes of the Declare form, under the legend `quickLabel`), and the action kinds that are
   * not declared at all (Hitbox's dodge and parry answer attacks); with `sealed` (the i18n key of
   * the whisper's title, `{name}`), declarations before the reveal are whispered to the GMs
   * instead of stored on the Combatant (combat/sealed.ts). Absent: one action of any kind, open.
   */
  readonly declaration?: {
    readonly quick: readonly string[];
    readonly quickLabel: string;
    readonly notDeclared?: readonly ActionDef["kind"][];
    readonly sealed?: string;
  };
  /**
   * A parry split the combatant carries for the round under way (Critical's `system.parry`, OB by
   * foe token, CR-PAR-01), for the tracker's forecast: the split read off the core's combatant,
   * and whether the rules accept it now (by the foes' combatant ids). Absent for a ruleset without.
   */
  readonly declaredParry?: {
    read(c: C): Readonly<Record<string, number>> | undefined;
    accepts(c: C, split: Record<string, number>): boolean;
  };
  /** The ruleset's own GM tools for macros, reached as `game.fray.binding.tools` (Hitbox's opposed test). */
  readonly tools?: Readonly<Record<string, unknown>>;
  /** The core's weapon of an item source, where the ruleset reads items one by one. */
  weaponFromItem?(item: ItemSource): unknown;
  /**
   * The firing modes of a weapon item source as the weapon row and the attack dialog offer them
   * (UD-RNG-02 the weapon's own modes, ZN-BST-01 single shot, burst, full auto): the mode an
   * attack without a mode fires first, then each mode sent as the request's `modeId`; labels
   * localized. Empty when the weapon has one way to attack. Absent for a ruleset whose weapons
   * have no modes (Hitbox, Critical).
   */
  weaponModes?(item: ItemSource, i18n: SheetI18n): WeaponMode[];
  /** The core's armor of an item source, where the ruleset reads items one by one. */
  armorFromItem?(item: ItemSource): unknown;
  /** The actor sheet's parts (templates `templates/actor/<part>.hbs`) per actor type. */
  readonly sheetParts: { readonly character: readonly string[]; readonly npc: readonly string[] };
  /**
   * The actor sheet's context for this ruleset's own parts (built on `actorSheetBase`); absent
   * when the ruleset shows the generic stat view.
   */
  readonly sheetContext?: ActorContextBuilder;
  /** The weapon and armor sheets' context for this ruleset; absent for the generic view. */
  readonly itemSheetContext?: ItemContextBuilder;
  /**
   * Templates of this ruleset's own actor sheet parts, by part id (Foundry paths under
   * `templates/<id>/`): a part of {@link sheetParts} named here renders this template, every
   * other part the generic one of `templates/actor/`. Absent when all parts are generic.
   */
  readonly sheetTemplates?: Readonly<Record<string, string>>;
  /** The weapon and armor sheets' template of this ruleset, in place of the generic one. */
  readonly itemSheetTemplate?: string;
  /**
   * Runs a control of this ruleset's own sheet parts (`data-action="rulesetAction"`): `data` holds
   * the control's `data-*` values (`rulesetAction`, `value`, ...) and `itemId` from the control or
   * the row around it. A treatment of a wound, a maneuver, a reload, a stance. Absent when its
   * parts have none.
   * @param actor the sheet's actor; `tokenId` its token on a token actor's sheet.
   */
  sheetAction?(actor: unknown, data: Readonly<Record<string, string | undefined>>, tokenId?: string): Promise<void>;
  /**
   * Rolls a skill check from the sheet (`data-skill`), spending what the round asks; absent
   * when the ruleset's sheet has no skill rolls.
   * @param actor the sheet's actor; `tokenId` its token on a token actor's sheet.
   */
  rollSkill?(actor: unknown, skill: string, tokenId?: string): Promise<void>;
  /** Templates this ruleset renders, preloaded in `init` (Foundry paths). */
  readonly templates: readonly string[];
  /** The units its scenes measure movement in. */
  readonly movementUnits: MovementUnits;
  /** The token bars its actors show and offer (UD10: HP and EP; Critical: hits alone). */
  readonly tokenBars: TokenBars;
  /**
   * The attack card's steps beyond the play contract (a reaction on the card, the attacker a
   * replay reads, the vitals an undo restores); absent when the card needs none.
   */
  readonly cardRules?: CardRules;
  /**
   * What an attack leaves behind on the attacker's documents once its card is posted, beyond the
   * round's economy (ZN-BST-01 rounds spent, ZN-MAL-01 a malfunction kept, ZN-RNG-07 the aim
   * spent, ZN-THR-01 a thrown weapon gone): called by the attack workflow with the attacking
   * actor, the weapon item's id and the core's results, one per target. Absent when an attack
   * changes nothing on the documents.
   */
  afterAttack?(attack: { actor: unknown; weaponId: string; results: readonly AttackResult[] }): Promise<void>;
  /**
   * The lines the attack dialog shows under each target's odds beyond the chance to hit (Critical:
   * the OB and DB with the parry that applies, the chance of each outcome, CR-PAR-01, CR-ATK-02);
   * absent when the dialog shows the chance to hit only. Computed from the core's plan and odds.
   */
  dialogDetails?(plan: AttackPlan, odds: AttackOdds): DialogDetail[];
  /**
   * Adds the ruleset's own part to the combat tracker after the pipeline's rows and phase banner
   * (Hitbox: the resolution step and the GM's End step button, HB-ACT-01); absent when it adds
   * nothing.
   */
  renderTracker?(combat: unknown, html: HTMLElement): void;
  /**
   * Registers this ruleset's Quench batches (`fray.<id>.*`) for a GM to run in a real world;
   * called on `quenchReady` when the batches are enabled.
   */
  registerQuench?(quench: Quench): void;
  /**
   * The token ruler's bands when they are not the core's `movement` (Zones measures speed points
   * through its movement actions' costs, not metres): nearest first, each `maxMetres` in the
   * ruler's measured cost converted as metres.
   */
  rulerBands?(c: C, options: RulesetOptions): MovementBand[];
  /**
   * Registers this ruleset's own play in `init`, after the generic flow, when it is the world's
   * ruleset: its hooks (Critical's Self Discipline prompt and upkeep, Zones' blast card), game
   * settings of Foundry's it sets (Hitbox's 5 s turn), and its GM request handlers (returned,
   * registered by the caller). Absent when it adds nothing.
   * @returns request handlers by name (`fray.<id>.*`), or nothing.
   */
  init?(): Record<string, RequestHandler> | void;
}

/** A binding of any combatant shape, as the registry holds it. */
// The combatant type is the binding's own; the registry hands it out opaque.
export type AnyBinding = RulesetBinding<never> | RulesetBinding<unknown>;

/**
 * The rulesets the system knows, by id. Registering an id twice replaces the binding (a module
 * can swap in its own).
 */
export class RulesetRegistry {
  readonly #bindings = new Map<string, RulesetBinding<unknown>>();

  /**
   * Adds a binding.
   * @throws Error when `binding.id` and `binding.ruleset.id` differ.
   */
  register<C>(binding: RulesetBinding<C>): void {
    if (binding.id !== binding.ruleset.id) throw new Error(`Fray | binding ${binding.id} holds the ${binding.ruleset.id} ruleset`);
    this.#bindings.set(binding.id, binding as unknown as RulesetBinding<unknown>);
  }

  /** The binding of a ruleset id, or `undefined` for an id nobody registered. */
  get(id: string): RulesetBinding<unknown> | undefined {
    return this.#bindings.get(id);
  }

  /** True when a binding for `id` is registered. */
  has(id: string): boolean {
    return this.#bindings.has(id);
  }

  /** Every binding, in the order they were registered. */
  list(): RulesetBinding<unknown>[] {
    return [...this.#bindings.values()];
  }

  /** The registered ruleset ids, in order. */
  ids(): RulesetChoice[] {
    return this.list().map((b) => b.id);
  }
}

/** The system's registry; `src/foundry/rulesets/index.ts` fills it with the four rulesets. */
export const registry = new RulesetRegistry();

/**
 * The world's ruleset (the `ruleset` setting); `ud10` before settings are ready or when the
 * stored value names no registered ruleset.
 */
export function activeRuleset(): RulesetChoice {
  let value: unknown;
  try {
    value = (game.settings?.get as ((ns: string, key: string) => unknown) | undefined)?.call(game.settings, SYSTEM_ID, RULESET_SETTING);
  } catch {
    value = undefined;
  }
  return typeof value === "string" && registry.has(value) ? (value as RulesetChoice) : "ud10";
}

/**
 * The binding of the world's ruleset.
 * @throws Error when not even UD10 is registered (the registry was not filled).
 */
export function activeBinding(): RulesetBinding<unknown> {
  const binding = registry.get(activeRuleset()) ?? registry.get("ud10");
  if (!binding) throw new Error("Fray | no ruleset is registered");
  return binding;
}

/** The binding of a ruleset id, or the world's when `id` is absent or unknown. */
export function bindingOf(id?: string): RulesetBinding<unknown> {
  return (id ? registry.get(id) : undefined) ?? activeBinding();
}
