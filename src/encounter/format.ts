import { formatKey, pluralKey, type Lookup } from "../rules/core/i18n.js";
import type { CheckResult, Difficulty, Modifier, RollOutcome } from "../rules/core/types.js";
import { DRIVERS } from "./drivers.js";
import { pct } from "./percent.js";
import type { CombatantSummary, EncounterEvent, EncounterResult } from "./types.js";
import type { VitalState } from "../rules/core/types.js";

const signed = (n: number) => (n < 0 ? `- ${-n}` : `+ ${n}`);

export { pct } from "./percent.js";

/** The vitals of a combatant as the log shows them in its ruleset's words: `HP 18/22, EP 20/20 — Aiming (1 round)`. */
function vitalsText(v: VitalState, t: (key: string, data?: Record<string, string | number>) => string, ruleset?: string): string {
  const parts: string[] = [];
  // The tracks' localized names (German LP, AuP), as the forecast names them; Critical counts hits (CR-ATK-02).
  if (v.hp)
    parts.push(t(ruleset === "critical" ? "FRAY.Forecast.Track.hits" : "FRAY.Forecast.Track.hp", { points: `${v.hp.value}/${v.hp.max}` }));
  if (v.ep) parts.push(t("FRAY.Forecast.Track.ep", { points: `${v.ep.value}/${v.ep.max}` }));
  for (const [box, track] of Object.entries(v.hitboxes ?? {})) parts.push(`${t(`FRAY.Hitbox.${box}`)} ${track.value}/${track.max}`);
  if (v.bleeding) parts.push(t("FRAY.Log.Bleeding", { hits: v.bleeding }));
  if (v.stun) parts.push(t(pluralKey("FRAY.Log.Stun", v.stun), { rounds: v.stun }));
  const conds = v.conditions.length ? " — " + v.conditions.map((x) => t(`FRAY.Condition.${x}`)).join(", ") : "";
  return parts.join(", ") + conds;
}

/**
 * How an encounter ended, localized: the winning side and the round (or that nobody won), then
 * every combatant's side and final vitals. The last lines of {@link formatLog}, and all that
 * `npm run encounter -- --quiet` prints of the fight. `lang` is the reader's language (`en`, `de`).
 */
export function formatOutcome(result: EncounterResult, lookup: Lookup, lang = "en"): string[] {
  const t = (key: string, data?: Record<string, string | number>) => formatKey(lookup, key, data, lang);
  const end = result.events.findLast((e) => e.type === "end");
  const round = result.rounds;
  // In the ruleset's word for a round (Hitbox: turn).
  const turn = DRIVERS[result.ruleset as keyof typeof DRIVERS]?.turns ? "Turn" : "";
  const lines = [
    result.winner
      ? t(`FRAY.Log.Winner${turn}`, { side: result.winner, round })
      : t(end?.reason === "side-down" ? `FRAY.Log.NobodyStanding${turn}` : `FRAY.Log.NoWinner${turn}`, { round }),
    t("FRAY.Log.FinalState"),
  ];
  for (const c of result.combatants as CombatantSummary[])
    lines.push(`  ${c.name} (${c.side}): ${vitalsText(c.vitals, t, result.ruleset)}`);
  return lines;
}

/**
 * Turns an encounter's events into a readable, localized log: each round, the initiative order,
 * every roll itemized (dice faces, each modifier with its rule ID), each damage step, and how the
 * fight ended ({@link formatOutcome}).
 * `lang` is the reader's language (`en`, `de`): chances and fractions are written in it.
 *
 * Read as a GM reads a fight: an attack says where it is made from (in melee, or at the range in
 * the ruleset's units, feet in Hitbox), its chance to hit (and to get through a declared reaction),
 * and a combatant whose chosen target is out says once whom it attacks instead.
 */
export function formatLog(result: EncounterResult, lookup: Lookup, lang = "en"): string[] {
  const t = (key: string, data?: Record<string, string | number>) => formatKey(lookup, key, data, lang);
  const names = new Map(result.combatants.map((c) => [c.id, c.name]));
  const name = (id: string) => names.get(id) ?? id;
  /** Retargets already told: `actor from to`, each said once. */
  const retold = new Set<string>();
  const faces = (roll: RollOutcome) => roll.dice.map((d) => `d${d.faces}[${d.results.join(",")}]`).join(" ") || String(roll.total);
  const mod = (m: Modifier) => `${signed(m.value)} ${t(m.label, m.data)} (${m.rule})`;
  const check = (c: CheckResult) => `${faces(c.roll)} ${c.modifiers.map(mod).join(" ")} = ${c.total}`;
  const diff = (d: Difficulty) => `${d.base.value} ${t(d.base.label)} ${d.modifiers.map(mod).join(" ")} = ${d.total}`.replace(/ +/g, " ");
  const vitals = (v: VitalState) => vitalsText(v, t, result.ruleset);
  // In melee, at the range in the ruleset's units (feet where it measures in feet), or nothing.
  const where = (e: Extract<EncounterEvent, { type: "attack" }>) =>
    e.melee
      ? t("FRAY.Log.InMelee")
      : e.feet !== undefined
        ? t("FRAY.Log.AtRange", { range: e.feet, units: "ft" })
        : e.range !== undefined
          ? t("FRAY.Log.AtRange", { range: e.range, units: "m" })
          : "";
  const driver = DRIVERS[result.ruleset as keyof typeof DRIVERS];
  const lines: string[] = [t("FRAY.Log.Title", { name: result.name, seed: result.seed, ruleset: `FRAY.Ruleset.${result.ruleset}` })];
  const on = Object.entries(result.options)
    .filter(([, v]) => v === true)
    .map(([k]) => t(`FRAY.Option.${k}.label`));
  lines.push(t("FRAY.Log.Options", { options: on.join(", ") || "-" }));
  for (const e of result.events as EncounterEvent[]) {
    switch (e.type) {
      case "round":
        if (driver?.headsRounds) {
          lines.push("");
          break;
        }
        lines.push(
          "",
          e.seconds
            ? t("FRAY.Log.RoundTime", { round: e.round, from: (e.round - 1) * e.seconds, to: e.round * e.seconds })
            : t("FRAY.Log.Round", { round: e.round }),
        );
        break;
      case "initiative":
        lines.push(
          // Kept in the first round: the initiative the file gives (the tracker's round under way).
          (e.kept ? t(e.round <= 1 ? "FRAY.Log.InitiativeGiven" : "FRAY.Log.InitiativeKept") : t("FRAY.Log.Initiative")) +
            " " +
            // (A roll given, not rolled, has no formula: its total alone.)
            e.rolls
              .map(
                (r) => `${r.members.map(name).join("+")} ${r.total}${e.kept || r.check.roll.formula === "" ? "" : ` (${check(r.check)})`}`,
              )
              .join("; "),
        );
        break;
      case "attack": {
        const r = e.result;
        lines.push(
          t(e.free ? "FRAY.Log.FreeAttack" : "FRAY.Log.Attack", {
            attacker: name(e.attacker),
            target: name(e.target),
            weapon: e.mode ? `${e.weapon} (${e.modeLabel ? t(e.modeLabel, e.modeData) : e.mode})` : e.weapon,
            where: where(e),
          }).replace(/[ ,]+$/, ""),
        );
        lines.push(`  ${t("FRAY.Log.Check")}: ${check(r.check)}`);
        // The reaction's line: its roll and whether it worked; where its total is the difficulty
        // (Hitbox), before the difficulty, and a total that stands from an earlier attack this
        // round is named as such instead of shown as if rolled again.
        const reacted = r.reaction
          ? driver?.reactionSetsDifficulty && (r as { reactionRolledNow?: boolean }).reactionRolledNow === false
            ? `  ${t("FRAY.Log.ReactionStands", { reaction: t(`FRAY.Reaction.${r.reaction.id}`), total: r.reaction.check.total })} (${r.reaction.rule})`
            : `  ${t(`FRAY.Reaction.${r.reaction.id}`)} (${r.reaction.rule}): ${check(r.reaction.check)} ${t(r.reaction.success ? "FRAY.Log.ReactionWorks" : "FRAY.Log.ReactionFails")}`
          : undefined;
        if (reacted && driver?.reactionSetsDifficulty) lines.push(reacted);
        lines.push(`  ${t("FRAY.Log.Difficulty")}: ${diff(r.plan.difficulty)}`);
        // The chance to hit, and with a declared reaction the chance to hit and get through it.
        const through = e.odds.throughReaction;
        const reaction = r.plan.reaction?.id ?? r.reaction?.id;
        const odds =
          through !== undefined && reaction !== undefined && Math.abs(through - e.odds.hit) > 1e-12
            ? t("FRAY.Log.OddsThrough", {
                odds: pct(e.odds.hit, lang),
                through: pct(through, lang),
                reaction: t(`FRAY.Reaction.${reaction}`),
              })
            : t("FRAY.Log.Odds", { odds: pct(e.odds.hit, lang) });
        lines.push(`  ${t(r.hit ? "FRAY.Log.Hit" : "FRAY.Log.Miss")} (${odds})`);
        if (reacted && !driver?.reactionSetsDifficulty) lines.push(reacted);
        if (r.location && !driver?.locatesHits)
          lines.push(
            `  ${t("FRAY.Log.Location")} (${r.location.rule}): ${r.location.roll ? faces(r.location.roll) + " " : ""}${t(r.location.label)}`,
          );
        break;
      }
      case "damage": {
        // Fixed damage (a Hitbox weapon's points) has no dice to show: the amount alone.
        const roll = e.packet.roll;
        const rolled = roll.dice.length
          ? `${roll.formula} ${faces(roll)} = ${e.packet.amount}`
          : roll.formula === "" || roll.formula === String(e.packet.amount)
            ? String(e.packet.amount)
            : `${roll.formula} = ${e.packet.amount}`;
        lines.push(`  ${t("FRAY.Log.Damage")}: ${rolled}`);
        for (const s of e.report.steps.slice(1)) {
          const text = `    ${t(s.label, { ...(s.data ?? {}), value: s.value })} (${s.rule})`;
          // A step that took nothing says only what is left (no "-0"), as the Zones log does.
          lines.push(s.informational ? text : `${text}: ${s.value ? `-${s.value} ` : ""}-> ${s.remaining}`);
        }
        lines.push(`  ${name(e.target)}: ${vitals(e.report.after)}`);
        break;
      }
      case "move":
        lines.push(t("FRAY.Log.Move", { actor: name(e.actor), metres: e.metres, band: t(e.band) }) + ` (${e.rule})`);
        break;
      case "aim":
        lines.push(t(pluralKey("FRAY.Log.Aim", e.rounds, lang), { actor: name(e.actor), rounds: e.rounds }) + " (UD-ATK-04)");
        break;
      case "disengage":
        lines.push(
          t(e.mode === "flee" ? "FRAY.Log.Flee" : "FRAY.Log.Retreat", {
            actor: name(e.actor),
            foes: e.freeAttacks.map(name).join(", ") || "-",
          }) + ` (${e.rule})`,
        );
        break;
      case "retarget": {
        // Said once: a standing order's target stays out for the rest of the fight.
        const key = `${e.actor} ${e.from} ${e.to}`;
        if (!retold.has(key)) lines.push(t("FRAY.Log.Retarget", { actor: name(e.actor), from: name(e.from), to: name(e.to) }));
        retold.add(key);
        break;
      }
      case "skip":
        lines.push(`${name(e.actor)}: ${t(e.reason, e.data)}`);
        break;
      case "end":
        lines.push("", ...formatOutcome(result, lookup, lang));
        break;
      case "custom":
        if (driver?.formatCustom) lines.push(...driver.formatCustom(e, t, lookup, lang));
        break;
    }
  }
  return lines;
}
