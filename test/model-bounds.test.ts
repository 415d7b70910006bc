/**
 * The bounds table drives the data models: every number field of every ruleset's models takes
 * its min, max and whole-number rule from `RULESET_BOUNDS`, so a sheet allows exactly what the
 * core's validators allow. Each field is compared with the validator of the same path (an
 * actor's stored stats, a weapon, an armor piece) by feeding both the same values.
 */
import { beforeAll, describe, expect, it } from "vitest";
import * as v from "valibot";
import { RULESET_BOUNDS } from "../src/rules/core/bounds.js";
import * as ud10 from "../src/rules/ud10/schema.js";
import * as hitbox from "../src/rules/hitbox/schema.js";
import * as critical from "../src/rules/critical/schema.js";
import * as zones from "../src/rules/zones/schema.js";
import {
  ArrayField,
  installFoundryStub,
  NumberField,
  SchemaField,
  TypedObjectField,
  type ModelClass,
  type StubField,
} from "./support/foundry-stub.js";

type Models = typeof import("../src/foundry/data-models.js");
type Node = { type?: string; entries?: Record<string, Node>; wrapped?: Node; options?: Node[]; pipe?: Node[]; item?: Node; value?: Node };

let models: Models;

beforeAll(async () => {
  installFoundryStub("en");
  await import("../src/foundry/rulesets/index.js");
  models = await import("../src/foundry/data-models.js");
});

/** Every number field of a schema with its path; `*` for the values of a keyed object, `[]` for list elements. */
function numberFields(fields: Record<string, StubField>, prefix = ""): [string, StubField][] {
  const out: [string, StubField][] = [];
  const visit = (path: string, field: StubField): void => {
    if (field instanceof NumberField) out.push([path, field]);
    else if (field instanceof SchemaField) for (const [k, f] of Object.entries(field.fields)) visit(`${path}.${k}`, f);
    else if (field instanceof TypedObjectField) visit(`${path}.*`, field.element);
    else if (field instanceof ArrayField) visit(`${path}.[]`, field.element);
  };
  for (const [k, f] of Object.entries(fields)) visit(prefix ? `${prefix}.${k}` : k, f);
  return out;
}

/** A validator schema and everything it wraps (optional, nullable, union members, pipe members). */
function expand(node: Node): Node[] {
  const inner = [node.wrapped, ...(node.options ?? []), ...(node.pipe ?? []).filter((p) => p !== node)].filter(
    (n): n is Node => typeof n === "object" && n !== null && "type" in n,
  );
  return [node, ...inner.flatMap(expand)];
}

/** The validator schema at `path` below `root`, undefined when the validator has no such field. */
function validatorAt(root: Node, path: string): Node | undefined {
  let node: Node | undefined = root;
  for (const key of path.split(".")) {
    if (!node) return undefined;
    const candidates = expand(node);
    node =
      key === "*"
        ? candidates.find((c) => c.type === "record")?.value
        : key === "[]"
          ? candidates.find((c) => c.type === "array")?.item
          : candidates.find((c) => c.entries?.[key])?.entries?.[key];
  }
  return node;
}

/** Values on and around a field's limits. */
function probes(min: number, max: number): number[] {
  return [min, max, min - 1, max + 1, min + 0.5, max - 0.5, (min + max) / 2, -1e9, 1e9].filter((n, i, all) => all.indexOf(n) === i);
}

/** Whether the model field takes `n` as Foundry's NumberField checks it. */
function fieldTakes(field: StubField, n: number): boolean {
  const { min, max, integer } = field.options as { min?: number; max?: number; integer?: boolean };
  return (min === undefined || n >= min) && (max === undefined || n <= max) && (!integer || Number.isInteger(n));
}

/** The model class a ruleset registers for a document type. */
function modelOf(ruleset: string, type: string): ModelClass {
  return (models.rulesetModels()[ruleset as keyof ReturnType<Models["rulesetModels"]>] as unknown as Record<string, ModelClass>)[type]!;
}

const RULESETS = { ud10, hitbox, critical, zones } as const;

/** Number fields of the models that no validator reads, with the bound each must carry. */
const NOT_VALIDATED: Record<string, Record<string, { min: number; max: number; integer: boolean }>> = {
  hitbox: { "character:shockTurnsLeft": RULESET_BOUNDS.hitbox.shockTurns, "npc:shockTurnsLeft": RULESET_BOUNDS.hitbox.shockTurns },
};

describe("the bounds table drives the data models", () => {
  for (const [ruleset, schemas] of Object.entries(RULESETS)) {
    it(`${ruleset}: every number field allows exactly what the core's validator of that field allows`, () => {
      const set = Object.fromEntries(["character", "npc", "weapon", "armor"].map((t) => [t, modelOf(ruleset, t)]));
      const validators: Record<string, Node> = {
        character: schemas.statsSchema as unknown as Node,
        npc: schemas.statsSchema as unknown as Node,
        weapon: schemas.weaponSchema as unknown as Node,
        armor: schemas.armorSchema as unknown as Node,
      };
      let compared = 0;
      for (const [type, model] of Object.entries(set)) {
        const fields = numberFields(model.defineSchema());
        expect(fields.length, `${type} has number fields`).toBeGreaterThan(0);
        for (const [path, field] of fields) {
          const { min, max, integer } = field.options as { min?: number; max?: number; integer?: boolean };
          expect(typeof min === "number" && typeof max === "number", `${ruleset} ${type}.${path} has a min and a max`).toBe(true);
          const validator = validatorAt(validators[type]!, path);
          if (!validator) {
            const expected = NOT_VALIDATED[ruleset]?.[`${type}:${path}`];
            expect(expected, `${ruleset} ${type}.${path}: no validator reads it, so it must be listed`).toBeDefined();
            expect({ min, max, integer }).toEqual({ min: expected!.min, max: expected!.max, integer: expected!.integer });
            continue;
          }
          for (const n of probes(min!, max!)) {
            expect(v.safeParse(validator as never, n).success, `${ruleset} ${type}.${path} = ${n}`).toBe(fieldTakes(field, n));
          }
          compared++;
        }
      }
      expect(compared).toBeGreaterThan(10);
    });
  }

  it("HB-DMG-04: the Hitbox actor stores the shock count the core writes, null while none runs", () => {
    for (const type of ["character", "npc"] as const) {
      const field = modelOf("hitbox", type).defineSchema().shockTurnsLeft as StubField;
      expect(field).toBeInstanceOf(NumberField);
      expect(field.options).toMatchObject({
        nullable: true,
        initial: null,
        integer: true,
        min: 0,
        max: RULESET_BOUNDS.hitbox.shockTurns.max,
      });
    }
  });

  it("a pool's current value may drop below 0 where the ruleset allows it (UD-DMG-04, ZN-DMG-01, CR-HIT-02)", () => {
    const hp = (ruleset: string, key: string) =>
      ((modelOf(ruleset, "character").defineSchema() as Record<string, SchemaField>)[key]!.fields.value as StubField).options;
    expect(hp("ud10", "hp").min).toBe(-1000);
    expect(hp("zones", "hp").min).toBe(-1000);
    const hits = (modelOf("critical", "npc").defineSchema() as Record<string, SchemaField>).hits!.fields;
    expect((hits.value as StubField).options.min).toBe(-10_000);
    expect((hits.max as StubField).options.min).toBe(1);
  });
});
