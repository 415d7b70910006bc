/**
 * Token bars per ruleset: each binding declares its bars (`RulesetBinding.tokenBars`); the world's
 * are what a token's configuration offers (`CONFIG.Actor.trackableAttributes`), and a new actor's
 * prototype token shows the ruleset's `bar1` and `bar2` (set in the Actor's `_preCreate`), so a
 * Hitbox or Critical token shows its own pools and no Zones token looks for endurance points.
 */
import type { TokenBars } from "../registry.js";

/** The actor types whose tokens get bars. */
const ACTOR_TYPES = ["character", "npc"] as const;

/** `CONFIG.Actor.trackableAttributes` of a ruleset: per actor type, its bars and values. Pure. */
export function trackableAttributes(bars: TokenBars): Record<string, { bar: string[]; value: string[] }> {
  return Object.fromEntries(ACTOR_TYPES.map((type) => [type, { bar: [...bars.bars], value: [...bars.values] }]));
}

/** Registers the world's bars as the trackable attributes of its actors. Call from `init`. */
export function registerTokenBars(bars: TokenBars): void {
  (CONFIG.Actor as unknown as { trackableAttributes?: unknown }).trackableAttributes = trackableAttributes(bars);
}

/**
 * The source update a new actor's `_preCreate` applies: the ruleset's `bar1` and `bar2` on its
 * prototype token (`{ prototypeToken: { bar1: { attribute } } }`), each unless the creation data
 * names that bar's attribute itself (a compendium actor, an import). `undefined` when nothing is
 * to set, for an actor type that gets no bars among them. Pure.
 */
export function prototypeBars(
  bars: TokenBars,
  data: { type?: string; prototypeToken?: { bar1?: { attribute?: unknown }; bar2?: { attribute?: unknown } } },
): { prototypeToken: Partial<Record<"bar1" | "bar2", { attribute: string | null }>> } | undefined {
  if (!(ACTOR_TYPES as readonly string[]).includes(data.type ?? "")) return undefined;
  const token: Partial<Record<"bar1" | "bar2", { attribute: string | null }>> = {};
  if (data.prototypeToken?.bar1?.attribute === undefined) token.bar1 = { attribute: bars.bar1 };
  if (data.prototypeToken?.bar2?.attribute === undefined) token.bar2 = { attribute: bars.bar2 };
  return token.bar1 || token.bar2 ? { prototypeToken: token } : undefined;
}
