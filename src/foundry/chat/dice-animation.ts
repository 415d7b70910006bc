/**
 * 3D dice for Rolls added to an existing ChatMessage by an update (an attack card's reaction,
 * damage, critical or forced check; a Zones reaction card's contest). Foundry and Dice So Nice animate the Rolls of a message as it is created, not
 * those an update appends, so the client that writes them hands each to Dice So Nice's
 * `game.dice3d.showForRoll`, synchronized to the other users as the message's whisper and blind
 * allow. Nothing happens unless the `dice-so-nice` module is active (docs/foundry-assumptions.md U1).
 */

/** Dice So Nice's API as Fray calls it (`game.dice3d`). */
interface Dice3D {
  showForRoll(
    roll: unknown,
    user: unknown,
    synchronize: boolean,
    whisper: string[] | null,
    blind: boolean,
    messageId: string | null,
    speaker: unknown,
  ): Promise<unknown>;
}

/** The parts of a ChatMessage the animation reads. */
export interface AnimatedMessage {
  id?: string | null;
  whisper?: readonly string[] | null;
  blind?: boolean;
  speaker?: unknown;
}

/** Dice So Nice's API when the module is active in this world, else nothing. */
function dice3d(): Dice3D | undefined {
  const g = game as unknown as { modules?: { get(id: string): { active?: boolean } | undefined }; dice3d?: Dice3D };
  return g.modules?.get("dice-so-nice")?.active ? g.dice3d : undefined;
}

/**
 * Shows Rolls just added to a message by an update as 3D dice, one `showForRoll` each, shown to
 * the other users too (synchronized) but only to those the message is whispered to, hidden from
 * the roller when the message is blind. Not awaited by the play: a failing animation is logged.
 * @param message the message the Rolls were added to.
 * @param rollJson the added Rolls as `Roll#toJSON()` strings (as the update wrote them).
 * @param userId who rolled them (their dice colours); the current user when absent.
 */
export function animateAddedRolls(message: AnimatedMessage, rollJson: readonly string[], userId?: string): void {
  const api = dice3d();
  if (!api || !rollJson.length) return;
  const user = (userId ? game.users?.get(userId) : undefined) ?? game.user;
  const whisper = message.whisper?.length ? [...message.whisper] : null;
  for (const json of rollJson) {
    try {
      const roll = Roll.fromJSON(json);
      void api
        .showForRoll(roll, user, true, whisper, message.blind === true, message.id ?? null, message.speaker)
        .catch((err: unknown) => console.warn("Fray | dice animation", err));
    } catch (err) {
      console.warn("Fray | dice animation", err);
    }
  }
}
