/**
 * The rules' list reads written as indexed loops (src/rules/core/lists.ts) answer as the array
 * methods they replace, on frozen lists (shared constants, a host's own) and plain ones alike.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { byIdOrName, byKind, hasAnyOf, holds, withConditions } from "../../src/rules/core/lists.js";

const words = fc.constantFrom("dead", "unconscious", "incapacitated", "prone", "surprised", "a", "b");
const items = fc.array(fc.record({ id: words, name: words, kind: words }), { maxLength: 6 });
const maybeFrozen = <T>(list: T[], frozen: boolean): readonly T[] => (frozen ? Object.freeze(list.map((x) => Object.freeze(x))) : list);

describe("list reads", () => {
  it("ZN-ACT-01, ZN-SUR-01: hasAnyOf answers as some over includes", () => {
    fc.assert(
      fc.property(fc.array(words, { maxLength: 6 }), fc.array(words, { maxLength: 3 }), fc.boolean(), (list, wanted, frozen) => {
        const l = maybeFrozen(list, frozen);
        expect(hasAnyOf(l, wanted)).toBe(l.some((x) => wanted.includes(x)));
      }),
      { numRuns: 300 },
    );
  });

  it("HB-DMG-01, HB-ACT-03: holds answers as includes", () => {
    fc.assert(
      fc.property(fc.array(words, { maxLength: 6 }), words, fc.boolean(), (list, item, frozen) => {
        const l = maybeFrozen(list, frozen);
        expect(holds(l, item)).toBe(l.includes(item));
      }),
      { numRuns: 300 },
    );
  });

  it("CR-PAR-01, CR-CRT-02: byIdOrName and byKind find the item find finds, the same object", () => {
    fc.assert(
      fc.property(items, words, fc.boolean(), (list, ref, frozen) => {
        const l = maybeFrozen(list, frozen);
        expect(byIdOrName(l, ref)).toBe(l.find((x) => x.id === ref || x.name === ref));
        expect(byKind(l, ref)).toBe(l.find((x) => x.kind === ref));
      }),
      { numRuns: 300 },
    );
  });

  it("UD-DMG-04, ZN-DMG-01, CR-HIT-02, HB-DMG-04: withConditions gives a new list, the conditions given appended in order", () => {
    const maybe = fc.option(words, { nil: undefined });
    fc.assert(
      fc.property(fc.array(words, { maxLength: 6 }), maybe, maybe, fc.boolean(), (list, first, second, frozen) => {
        const l = maybeFrozen(list, frozen);
        const before = [...l];
        const out = withConditions(l, first, second);
        expect(out).toEqual([...before, ...(first === undefined ? [] : [first]), ...(second === undefined ? [] : [second])]);
        expect(out).not.toBe(l);
        expect(l).toEqual(before);
        out.push("x");
        expect(l).toEqual(before);
      }),
      { numRuns: 300 },
    );
  });
});
