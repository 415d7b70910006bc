import { FrayError } from "../core/errors.js";

/**
 * Reactions declared in advance and played at the table (ZN-REA-01, ZN-REA-02): what a declared
 * reaction holds, when it lapses, who may read it before the plot is revealed, and the GM's
 * trigger. Pure data in, data out; the host stores the list and shows it.
 */

/** What a declared reaction will do when its trigger happens (ZN-REA-01, ZN-ACT-02). */
export const REACTION_RESPONSES = ["shoot", "attack", "dodge", "move", "draw", "other"] as const;

/** One of {@link REACTION_RESPONSES}. */
export type ReactionResponse = (typeof REACTION_RESPONSES)[number];

/** The longest trigger text kept, in characters. */
export const TRIGGER_MAX_LENGTH = 200;

/** A reaction declared by one combatant, as the host stores it (ZN-REA-01). */
export interface StoredReaction {
  /** Unique within the declarer's list. */
  id: string;
  /** The combat round it was declared in. */
  round: number;
  /** What sets it off, as its owner wrote it (plain text; the host escapes it). */
  trigger: string;
  /** What the declarer will do. */
  response: ReactionResponse;
  /** Declared in the plot (the declaration phase), so hidden from other players until the reveal. */
  plotted: boolean;
  /** The round the GM triggered it in; absent while it waits. */
  playedRound?: number;
}

/** Where the combat stands for one declarer: the round, and whether its turn of that round has begun. */
export interface ReactionClock {
  round: number;
  /** The declarer's turn of `round` has begun (it is acting or has acted this round). */
  turnBegun: boolean;
  /** The round's phase: `declare` while the plot is hidden, `resolve` after the reveal. */
  phase?: "declare" | "resolve";
}

/** A reaction's state at a moment of the combat. */
export type ReactionStatus = "pending" | "played" | "lapsed";

/**
 * The state of a declared reaction (ZN-REA-01): `played` once triggered, `lapsed` once the
 * declarer's next turn has begun, else `pending`. "Next turn" is the declarer's first turn in a
 * round after the one it was declared in: a reaction plotted for a round or declared during the
 * declarer's own turn holds through that round (RULES.md, "Reactions").
 */
export function reactionStatus(r: StoredReaction, now: ReactionClock): ReactionStatus {
  if (r.playedRound !== undefined) return "played";
  if (now.round > r.round + 1 || (now.round === r.round + 1 && now.turnBegun)) return "lapsed";
  return "pending";
}

/**
 * Who may read a declared reaction (ZN-REA-01, ZN-INI-01): the GM and the declarer's owner at
 * once; everyone else once it is said at the table, i.e. at once for a reaction declared during
 * play, and after the GM's reveal for one plotted in the declaration phase.
 */
export function reactionVisible(
  r: StoredReaction,
  now: Pick<ReactionClock, "round" | "phase">,
  reader: { isGM: boolean; owns: boolean },
): boolean {
  if (reader.isGM || reader.owns || !r.plotted) return true;
  return now.round > r.round || now.phase === "resolve";
}

/**
 * Reads a reaction from the declaration form (ZN-REA-01): the trigger trimmed, 1 to
 * {@link TRIGGER_MAX_LENGTH} characters; the response one of {@link REACTION_RESPONSES}.
 * @param id the new reaction's id; `round` the combat round; `plotted` declared in the plot.
 * @throws FrayError `FRAY.Error.Field` naming `trigger` or `response`.
 */
export function readReaction(
  input: { trigger?: unknown; response?: unknown },
  id: string,
  round: number,
  plotted: boolean,
): StoredReaction {
  const bad = (field: string, expected: string) =>
    new FrayError("FRAY.Error.Field", { field, expected }, `Field "${field}": expected ${expected}`);
  if (typeof input.trigger !== "string") throw bad("trigger", "text");
  const trigger = input.trigger.trim();
  if (!trigger) throw bad("trigger", "what sets the reaction off");
  if (trigger.length > TRIGGER_MAX_LENGTH) throw bad("trigger", `at most ${TRIGGER_MAX_LENGTH} characters`);
  const response = input.response;
  if (typeof response !== "string" || !(REACTION_RESPONSES as readonly string[]).includes(response))
    throw bad("response", `one of ${REACTION_RESPONSES.join(", ")}`);
  return { id, round, trigger, response: response as ReactionResponse, plotted };
}

/**
 * Reads a stored list (a document flag), dropping entries that are not reactions, and keeps only
 * those still of use at `now`: pending ones and those played this round (the card refers to them).
 */
export function storedReactions(raw: unknown, now?: ReactionClock): StoredReaction[] {
  if (!Array.isArray(raw)) return [];
  const out: StoredReaction[] = [];
  for (const e of raw as unknown[]) {
    if (!e || typeof e !== "object") continue;
    const r = e as Partial<StoredReaction>;
    if (typeof r.id !== "string" || typeof r.round !== "number" || typeof r.trigger !== "string") continue;
    if (typeof r.response !== "string" || !(REACTION_RESPONSES as readonly string[]).includes(r.response)) continue;
    const clean: StoredReaction = {
      id: r.id,
      round: r.round,
      trigger: r.trigger.slice(0, TRIGGER_MAX_LENGTH),
      response: r.response as ReactionResponse,
      plotted: r.plotted === true,
      ...(typeof r.playedRound === "number" ? { playedRound: r.playedRound } : {}),
    };
    if (now) {
      const status = reactionStatus(clean, now);
      if (status === "lapsed" || (status === "played" && clean.playedRound !== now.round)) continue;
    }
    out.push(clean);
  }
  return out;
}

/**
 * The GM triggers a pending reaction (ZN-REA-01): it is played during the action that set it off
 * and leaves the pending list. The reaction was paid when it was declared.
 * @returns the played reaction and the new list.
 * @throws FrayError `FRAY.Error.Zones.NoReaction` (field `reaction`) when no reaction of that id
 *   is pending (played, lapsed or unknown).
 */
export function playReaction(
  list: readonly StoredReaction[],
  id: string,
  now: ReactionClock,
): { reaction: StoredReaction; list: StoredReaction[] } {
  const found = list.find((r) => r.id === id);
  if (!found || reactionStatus(found, now) !== "pending")
    throw new FrayError(
      "FRAY.Error.Zones.NoReaction",
      { field: "reaction", reaction: found?.trigger ?? id },
      `No pending reaction "${id}"`,
    );
  const reaction = { ...found, playedRound: now.round };
  return { reaction, list: list.map((r) => (r.id === id ? reaction : r)) };
}
