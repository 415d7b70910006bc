/// <reference types="vite/client" />
/**
 * The core contract suite: the same tests over every ruleset that has a fixture in `fixtures/`
 * (one per ruleset). They check the play contract (src/rules/core/contract.ts) generically: the
 * neutral request builds the ruleset's input, the situation fields are complete data whose
 * defaults are what the core reads anyway, actions are paid from the ruleset's own economy,
 * conditions are real statuses, results are JSON-safe and lossless, vitals round-trip through
 * the actor source, and the round lifecycle keeps the economy's shape.
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import type { SituationValues } from "../../src/rules/core/contract.js";
import { ScriptedRoller } from "../../src/rules/core/dice/port.js";
import { createEconomy } from "../../src/rules/core/economy.js";
import type { RulesetOptions } from "../../src/rules/core/ruleset.js";
import { attackStep, planStep } from "../../src/rules/core/step.js";
import type { VitalState } from "../../src/rules/core/types.js";
import type { ContractFixture } from "./fixture.js";

const root = fileURLToPath(new URL("../..", import.meta.url));
type Tree = { [key: string]: string | Tree };
const langs = ["en", "de"].map((code) => JSON.parse(readFileSync(`${root}/lang/${code}.json`, "utf8")) as Tree);
const ruleIds = new Set(
  Array.from(readFileSync(`${root}/docs/rules-index.md`, "utf8").matchAll(/^- ((?:UD|HB|CR|ZN)-[A-Z]{2,3}-\d{2})\b/gm), (m) => m[1]!),
);

/** True when an i18n key names a text in both language files. */
function localized(key: string): boolean {
  return langs.every((tree) => {
    let node: string | Tree | undefined = tree;
    for (const part of key.split(".")) node = typeof node === "object" ? node[part] : undefined;
    return typeof node === "string";
  });
}

/** A deep copy through JSON: equal to the original only when the value is JSON-safe and lossless. */
const viaJson = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

/** True when an object has a dotted key anywhere (updates must be nested objects). */
function hasDottedKey(value: unknown): boolean {
  if (!value || typeof value !== "object" || Array.isArray(value)) return false;
  return Object.entries(value).some(([k, v]) => k.includes(".") || hasDottedKey(v));
}

/** Merges a nested update into a source, as Foundry's `mergeObject` does for an update. */
function merged(source: Record<string, unknown>, update: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...source };
  for (const [k, v] of Object.entries(update)) {
    const prev = out[k];
    out[k] =
      v && typeof v === "object" && !Array.isArray(v) && prev && typeof prev === "object" && !Array.isArray(prev)
        ? merged(prev as Record<string, unknown>, v as Record<string, unknown>)
        : v;
  }
  return out;
}

/** The vital state without conditions (statuses, not system fields, in Foundry). */
function tracked(state: VitalState): Omit<VitalState, "conditions"> {
  const { conditions: _conditions, ...rest } = state;
  return viaJson(rest);
}

const modules = import.meta.glob<{ fixture: ContractFixture }>("./fixtures/*.ts", { eager: true });
const fixtures = Object.values(modules).map((m) => m.fixture);

describe("core contract fixtures", () => {
  it("every ruleset has a fixture", () => {
    expect(fixtures.map((f) => f.ruleset.id).sort()).toEqual(["critical", "hitbox", "ud10", "zones"]);
  });
});

describe.each(fixtures.map((f) => [f.ruleset.id, f] as const))("%s: play contract", (_id, f) => {
  const r = f.ruleset;
  const options: RulesetOptions = { ...r.defaults(), ...(f.options ?? {}) };
  const context = {
    attacker: f.attacker,
    target: f.target,
    weaponId: f.request.weaponId,
    modeId: f.request.modeId,
    distanceMetres: f.request.distanceMetres,
  };

  it("offers every member of the play contract", () => {
    for (const member of [
      "input",
      "situation",
      "actions",
      "conditions",
      "withVitals",
      "vitalsUpdate",
      "startRound",
      "afterAction",
    ] as const) {
      expect(typeof r[member], member).toBe("function");
    }
  });

  it("builds its input from the neutral request and plans the attack", () => {
    const { plan } = planStep(r, f.request, f.attacker, f.target, options);
    expect(plan.ruleset).toBe(r.id);
    for (const m of [...plan.modifiers, plan.difficulty.base, ...plan.difficulty.modifiers]) {
      expect(ruleIds.has(m.rule), `${m.label} cites ${m.rule}`).toBe(true);
      expect(Number.isFinite(m.value)).toBe(true);
    }
  });

  it("describes its situation fields as complete, localized data", () => {
    const fields = r.situation!(context, options);
    expect(fields.length).toBeGreaterThan(0);
    expect(new Set(fields.map((s) => s.id)).size).toBe(fields.length);
    for (const s of fields) {
      expect(localized(s.label), `${s.id}: label ${s.label}`).toBe(true);
      if (s.hint) expect(localized(s.hint), `${s.id}: hint ${s.hint}`).toBe(true);
      expect(ruleIds.has(s.rule), `${s.id}: rule ${s.rule}`).toBe(true);
      switch (s.kind) {
        case "boolean":
          expect(typeof s.default, s.id).toBe("boolean");
          break;
        case "number":
          expect(typeof s.default, s.id).toBe("number");
          if (s.min !== undefined) expect(s.default as number).toBeGreaterThanOrEqual(s.min);
          if (s.max !== undefined) expect(s.default as number).toBeLessThanOrEqual(s.max);
          break;
        case "choice":
          expect(
            s.choices?.map((c) => c.value),
            s.id,
          ).toContain(s.default);
          break;
        case "multi":
          expect(Array.isArray(s.default), s.id).toBe(true);
          for (const v of s.default as string[]) expect(s.choices?.map((c) => c.value)).toContain(v);
          break;
      }
      for (const c of s.choices ?? []) expect(localized(c.label), `${s.id}: choice ${c.label}`).toBe(true);
    }
  });

  it("plans the same attack whether the situation defaults are given or left out", () => {
    const defaults: SituationValues = Object.fromEntries(r.situation!(context, options).map((s) => [s.id, s.default]));
    const omitted = planStep(r, { ...f.request, situation: {} }, f.attacker, f.target, options);
    const given = planStep(r, { ...f.request, situation: defaults }, f.attacker, f.target, options);
    expect(viaJson(given.plan)).toEqual(viaJson(omitted.plan));
    expect(given.odds).toEqual(omitted.odds);
  });

  it("refuses an unknown situation field, naming it", () => {
    expect(() => r.input!({ ...f.request, situation: { noSuchField: true } }, f.attacker, f.target, options)).toThrow(
      expect.objectContaining({ name: "FrayError", data: expect.objectContaining({ field: expect.stringContaining("noSuchField") }) }),
    );
  });

  it("lists actions whose costs its own economy can name", () => {
    const spec = r.economy(f.attacker, options);
    const slots = new Set(spec.slots.map((s) => s.id));
    const pools = new Set(spec.pools.map((p) => p.id));
    const actions = r.actions!(f.attacker, options);
    expect(actions.length).toBeGreaterThan(0);
    expect(new Set(actions.map((a) => a.id)).size).toBe(actions.length);
    expect(actions.some((a) => a.kind === "attack")).toBe(true);
    for (const a of actions) {
      expect(localized(a.label), `${a.id}: ${a.label}`).toBe(true);
      expect(ruleIds.has(a.rule), `${a.id}: ${a.rule}`).toBe(true);
      for (const [id, n] of Object.entries(a.cost.slots ?? {})) {
        expect(slots.has(id), `${a.id} costs slot ${id}`).toBe(true);
        expect(n).toBeGreaterThanOrEqual(0);
      }
      for (const [id, n] of Object.entries(a.cost.pools ?? {})) {
        expect(pools.has(id), `${a.id} costs pool ${id}`).toBe(true);
        expect(n).toBeGreaterThanOrEqual(0);
      }
    }
  });

  it("names the conditions it reads, and those that are out agree with isOut", () => {
    const conditions = r.conditions!();
    expect(new Set(conditions.map((c) => c.id)).size).toBe(conditions.length);
    const calm = r.vitals(f.target);
    for (const c of conditions) {
      expect(localized(c.label), `${c.id}: ${c.label}`).toBe(true);
      expect(c.icon).toMatch(/^icons\/.+\.(svg|webp|png)$/);
      expect(ruleIds.has(c.rule), `${c.id}: ${c.rule}`).toBe(true);
      if (c.out) expect(r.isOut({ ...calm, conditions: [c.id] }), c.id).toBe(true);
    }
    expect(conditions.some((c) => c.out)).toBe(true);
  });

  it("resolves a hit into JSON-safe, lossless results and writes the vitals back", async () => {
    const dice = new ScriptedRoller(f.hitFaces);
    const step = await attackStep(r, f.request, f.attacker, f.target, dice, options);
    expect(step.result.lands).toBe(true);
    expect(viaJson(step.result)).toEqual(step.result);
    expect(viaJson(step.packet)).toEqual(step.packet);
    expect(viaJson(step.report)).toEqual(step.report);
    const report = step.report!;
    expect(tracked(report.after)).not.toEqual(tracked(report.before));
    expect(r.vitals(r.withVitals!(f.target, report.after))).toEqual(report.after);
    const update = r.vitalsUpdate!(report.after);
    expect(hasDottedKey(update)).toBe(false);
    const reread = f.fromSource(merged(f.targetSource, update));
    expect(tracked(r.vitals(reread))).toEqual(tracked(report.after));
  });

  it("resolves a miss without damage", async () => {
    const step = await attackStep(r, f.request, f.attacker, f.target, new ScriptedRoller(f.missFaces), options);
    expect(step.result.hit).toBe(false);
    expect(step.report).toBeUndefined();
  });

  it("starts a round and ends an action with an economy of its own shape", async () => {
    const spec = r.economy(f.attacker, options);
    const fresh = createEconomy(spec);
    const first = r.startRound!(f.attacker, undefined, 1, options);
    expect(Object.keys(first.economy.slots).sort()).toEqual(Object.keys(fresh.slots).sort());
    expect(Object.keys(first.economy.pools).sort()).toEqual(Object.keys(fresh.pools).sort());
    const step = await attackStep(r, f.request, f.attacker, f.target, new ScriptedRoller(f.hitFaces), options);
    const after = r.afterAction!(
      first.combatant,
      { kind: "attack", weaponId: f.request.weaponId, modeId: f.request.modeId, result: step.result },
      first.economy,
      options,
    );
    expect(Object.keys(after.economy.slots).sort()).toEqual(Object.keys(fresh.slots).sort());
    expect(viaJson(after.events)).toEqual(after.events);
    for (const e of [...first.events, ...after.events]) {
      expect(localized(e.label), e.label).toBe(true);
      expect(ruleIds.has(e.rule), e.rule).toBe(true);
    }
    const next = r.startRound!(after.combatant, after.economy, 2, options);
    expect(Object.keys(next.economy.pools).sort()).toEqual(Object.keys(fresh.pools).sort());
  });
});
