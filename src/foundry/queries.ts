/**
 * Requests to the active GM, for work a user may not do on their own client: applying or undoing
 * damage, a step on a card the user did not post, spending the round economy of a combatant the
 * user does not own.
 *
 * Who asked is learned from what the server vouches for, never from a field of the request
 * (docs/foundry-assumptions.md). A v13 query (`CONFIG.queries`) carries no identity, so Fray does
 * not use one: the requester writes the request into a flag of their own User document, a write
 * Foundry allows a user on their own User only. The active GM's `updateUser(user, changes,
 * options, userId)` hook receives the id of the user who made that write from the server; the
 * request is handled only when that id is the User's own id (anything else is ignored: fail
 * closed), one request at a time (a serial queue).
 *
 * The hook receives differential data only (an unchanged key is absent from `changes`), so every
 * request and every answer is a key of its own, named by the request's id: the request is
 * `flags.fray.requests.<id>`, removed by the GM (`-=<id>`) when answered; the answer is
 * `flags.fray.answers.<id>`, which the requester accepts only from a GM's write and which its next
 * request clears. A new key arrives whole, so neither a repeated answer nor a second request
 * written before the first was removed loses a key on the way.
 * The active GM's own requests run in the same queue without the round trip; every other GM
 * client asks the active GM like a player does, so two GMs pressing Apply at once apply once.
 */
import { FrayError } from "../rules/core/errors.js";
import { error } from "./notify.js";

/** Request names Fray handles. */
export const QUERIES = {
  applyDamage: "fray.applyDamage",
  undoDamage: "fray.undoDamage",
  cardUpdate: "fray.cardUpdate",
  spend: "fray.spend",
  forcedCheck: "fray.forcedCheck",
} as const;

/** A user as the server vouches for them: their id and whether they are a GM. */
export interface Requester {
  id: string;
  isGM: boolean;
}

/** The GM's answer to a request: done, or a refusal as an i18n key and its data. */
export interface RequestAnswer {
  ok: boolean;
  error?: { key: string; data: Record<string, string | number> };
  /** Extra data of the answer (the slot a spend was short of ...). */
  short?: string;
}

/**
 * A request handler on the active GM: the request's JSON data and the requester the server
 * vouched for. It authorizes against the documents and recomputes what it writes.
 */
export type RequestHandler = (data: Record<string, unknown>, requester: Requester) => Promise<RequestAnswer>;

/** The parts of a User document the channel reads and writes. */
export interface UserDoc {
  id: string | null;
  isGM: boolean;
  active?: boolean;
  update(changes: Record<string, unknown>): Promise<unknown>;
}

/** A request as stored in `flags.fray.requests.<id>`. */
interface StoredRequest {
  name: string;
  data: Record<string, unknown>;
}

/** The form of a request's id: what `foundry.utils.randomID` makes. */
const REQUEST_ID = /^[A-Za-z0-9]{1,32}$/;

/** How long a requester waits for the GM's answer, in milliseconds. */
export const REQUEST_TIMEOUT_MS = 30_000;

const handlers = new Map<string, RequestHandler>();
const waiting = new Map<string, (answer: RequestAnswer) => void>();
let hooked = false;
let queue: Promise<unknown> = Promise.resolve();

/**
 * Registers the request handlers and, on the first call, the `updateUser` hook that carries
 * requests and answers. Call from the `init` hook.
 */
export function registerQueries(map: Record<string, RequestHandler>): void {
  for (const [name, handler] of Object.entries(map)) handlers.set(name, handler);
  // Further calls add handlers only: one hook carries every request.
  if (hooked) return;
  hooked = true;
  const on = Hooks.on.bind(Hooks) as unknown as (name: string, fn: (...args: never[]) => unknown) => number;
  on("updateUser", (user: UserDoc, changes: Record<string, unknown>, _options: unknown, userId: string) =>
    onUpdateUser(user, changes, userId),
  );
}

/** The names of the registered request handlers. */
export function requestNames(): string[] {
  return [...handlers.keys()];
}

/** The active GM (the one GM client that applies), if one is connected. */
export function activeGM(): UserDoc | undefined {
  return (game.users as unknown as { activeGM?: UserDoc | null } | undefined)?.activeGM ?? undefined;
}

/** True on the active GM's client. */
export function isActiveGM(): boolean {
  const gm = activeGM();
  return Boolean(gm && game.user && gm.id === game.user.id);
}

/** The current user as a {@link Requester}. */
function me(): Requester {
  return { id: game.user?.id ?? "", isGM: Boolean(game.user?.isGM) };
}

/**
 * Runs work on this client one job at a time, after every job queued before it; a failed job
 * does not stop the queue. The active GM runs every request through it.
 */
export function serial<T>(work: () => Promise<T>): Promise<T> {
  const run = queue.then(work, work);
  queue = run.catch(() => undefined);
  return run;
}

/** Runs a handler in the queue, turning a FrayError into a refusal and anything else into a generic one. */
function runRequest(name: string, data: Record<string, unknown>, requester: Requester): Promise<RequestAnswer> {
  const handler = handlers.get(name);
  if (!handler) return Promise.resolve(refusal("FRAY.Flow.Error.Refused"));
  return serial(async () => {
    try {
      return await handler(data, requester);
    } catch (err) {
      if (err instanceof FrayError) return { ok: false, error: { key: err.key, data: err.data } };
      console.error("Fray | request", name, err);
      return refusal("FRAY.Flow.Error.Refused");
    }
  });
}

/** A refusal with an i18n key. */
export function refusal(key: string, data: Record<string, string | number> = {}): RequestAnswer {
  return { ok: false, error: { key, data } };
}

/**
 * Asks the active GM to run a request and returns its answer. On the active GM's client the
 * request runs here, in the queue, as this user; elsewhere it is written into this user's
 * `flags.fray.requests.<id>` (clearing the answers of earlier requests) and the answer awaited.
 * With no GM connected shows a localized error and returns `undefined`; when no answer comes
 * within {@link REQUEST_TIMEOUT_MS} the answer is a refusal.
 */
export async function askGM(name: string, data: Record<string, unknown>): Promise<RequestAnswer | undefined> {
  const gm = activeGM();
  const user = game.user as unknown as UserDoc | undefined;
  if (!gm || !user?.id) {
    error("FRAY.Flow.Error.NoGM");
    return undefined;
  }
  if (gm.id === user.id) return runRequest(name, data, me());
  const id = foundry.utils.randomID();
  const answer = new Promise<RequestAnswer>((resolve) => {
    const timer = setTimeout(() => {
      waiting.delete(id);
      resolve(refusal("FRAY.Flow.Error.NoAnswer"));
    }, REQUEST_TIMEOUT_MS);
    waiting.set(id, (a) => {
      clearTimeout(timer);
      resolve(a);
    });
  });
  const request: StoredRequest = { name, data };
  // The answers of earlier requests were read when they came (or came too late): they go.
  await user.update({ "flags.fray.-=answers": null, [`flags.fray.requests.${id}`]: request });
  return answer;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * The entries of `flags.fray.<key>` an update wrote, by id: each id of the right form whose value
 * is an object (deletion keys `-=<id>` and anything else are left out). Reads the nested form the
 * hooks receive and the dotted form alike.
 */
function written(changes: Record<string, unknown>, key: string): [string, Record<string, unknown>][] {
  const expanded = foundry.utils.expandObject(changes) as Record<string, unknown>;
  const flags = expanded.flags;
  const fray = isRecord(flags) ? flags.fray : undefined;
  const entries = isRecord(fray) ? fray[key] : undefined;
  if (!isRecord(entries)) return [];
  return Object.entries(entries).filter((e): e is [string, Record<string, unknown>] => REQUEST_ID.test(e[0]) && isRecord(e[1]));
}

/**
 * The `updateUser` hook: on the active GM each request the user wrote on their own User is
 * handled; on the requester's client each answer a GM wrote resolves its waiting request.
 * @param user the User document updated.
 * @param changes the update's differential data.
 * @param userId the id of the user who made the update, as the server reports it.
 */
export function onUpdateUser(user: UserDoc, changes: Record<string, unknown>, userId: string): void {
  if (isActiveGM()) for (const [id, request] of written(changes, "requests")) void handleStoredRequest(user, id, request, userId);
  if (user.id === game.user?.id) for (const [id, answer] of written(changes, "answers")) acceptAnswer(id, answer, userId);
}

/** The active GM's side: checks who wrote the request, runs it, writes the answer in its place. */
async function handleStoredRequest(user: UserDoc, id: string, request: Record<string, unknown>, userId: string): Promise<void> {
  // Only the user themselves may ask in their name; a write by anyone else is ignored.
  if (!user.id || userId !== user.id) return;
  const name = String(request.name ?? "");
  const data = isRecord(request.data) ? request.data : {};
  const requester: Requester = { id: user.id, isGM: Boolean(user.isGM) };
  const answer = await runRequest(name, data, requester);
  await user.update({ [`flags.fray.answers.${id}`]: answer, [`flags.fray.requests.-=${id}`]: null });
}

/** The requester's side: an answer counts only when a GM wrote it. */
function acceptAnswer(id: string, answer: Record<string, unknown>, userId: string): void {
  const writer = (game.users as unknown as { get(id: string): { isGM?: boolean } | undefined } | undefined)?.get(userId);
  if (!writer?.isGM) return;
  const resolve = waiting.get(id);
  if (!resolve) return;
  waiting.delete(id);
  const error = isRecord(answer.error)
    ? { key: String(answer.error.key), data: (isRecord(answer.error.data) ? answer.error.data : {}) as Record<string, string | number> }
    : undefined;
  resolve({ ok: answer.ok === true, error, short: typeof answer.short === "string" ? answer.short : undefined });
}

/**
 * Reads the GM's answer on the asking client: `true` when done; the GM's refusal is raised here
 * as the FrayError it was, so the user sees the localized reason.
 * @throws FrayError with the refusal's key.
 */
export function queryAnswer(answer: RequestAnswer | undefined): boolean {
  if (answer?.error) throw new FrayError(answer.error.key, answer.error.data, answer.error.key);
  return Boolean(answer?.ok);
}
