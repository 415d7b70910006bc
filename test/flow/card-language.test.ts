/**
 * The attack card is typed data rendered on each reader's client in the reader's language: one
 * stored card read by an English and a German reader (UD-ATK-02, UD-DMG-01).
 */
import { describe, expect, it } from "vitest";
import { ScriptedRoller } from "../../src/rules/core/dice/port.js";
import { ud10 } from "../../src/rules/ud10/index.js";
import { readerCard, renderAttackCard, type AttackMessageLike } from "../../src/foundry/chat/attack-message.js";
import { attackTarget, storable } from "../../src/foundry/logic/attack-state.js";
import { withDamage, withoutReaction } from "../../src/foundry/logic/card.js";
import { StubI18n, lookup, readLang, renderTemplateFrom } from "../support/foundry-stub.js";
import { fighter, target } from "../rules/ud10-fixtures.js";

const en = new StubI18n(readLang("en"), "en");
const de = new StubI18n(readLang("de"), "de");
const opts = { ...ud10.defaults(), bodyZones: true };

/** An English GM's stored card: Ana's sword hit Bo (to the torso), no reaction, damage rolled. */
async function storedMessage(): Promise<AttackMessageLike & { content: string }> {
  const request = { attackerId: "ana", targetId: "bo", weaponId: "sword", distanceMetres: 1.5 };
  const { state } = await attackTarget(
    ud10,
    { actorUuid: "Actor.bo", tokenUuid: "", name: "Bo" },
    request,
    fighter(),
    target(),
    new ScriptedRoller([9, 5]),
    opts,
  );
  const input = ud10.input(state.request, fighter(), target(), opts);
  const damaged = withDamage(withoutReaction(state), storable(await ud10.rollDamage(state.result, input, new ScriptedRoller([6]), opts)));
  const system = {
    ruleset: "ud10",
    attackerUuid: "Actor.ana",
    weaponId: "sword",
    weaponName: "Sword",
    targets: [JSON.parse(JSON.stringify(damaged)) as typeof damaged],
  };
  const content = await renderAttackCard({ ...system, attackerName: "Ana" }, en, renderTemplateFrom(en));
  return {
    id: "m1",
    type: "attack",
    isOwner: true,
    system,
    rolls: [],
    content,
    speaker: { alias: "Ana" },
    update: async () => undefined,
  } as AttackMessageLike & { content: string };
}

describe("attack card per reader", () => {
  it("UD-ATK-02, UD-DMG-01: one stored card reads in English for an English reader and in German for a German one", async () => {
    const message = await storedMessage();
    expect(message.content).toContain('data-lang="en"');
    expect(message.content).toContain(lookup(readLang("en"), "FRAY.Flow.Button.applyDamage")!);
    // The English reader keeps the HTML as posted.
    expect(await readerCard(message, "en", en, renderTemplateFrom(en))).toBeUndefined();
    // The German reader gets the card rendered again from the stored data, in German.
    const german = (await readerCard(message, "en", de, renderTemplateFrom(de)))!;
    expect(german).toContain('data-lang="de"');
    for (const key of ["FRAY.Flow.Button.applyDamage", "FRAY.Chat.Hit", "FRAY.Chat.Defense"]) {
      const text = lookup(readLang("de"), key)!;
      expect(text).not.toBe(lookup(readLang("en"), key));
      expect(german).toContain(text);
    }
    expect(german).not.toContain(lookup(readLang("en"), "FRAY.Flow.Button.applyDamage")!);
    expect(german).toContain("Ana");
    expect(german).not.toMatch(/FRAY\./);
    // The same numbers and rule IDs in both languages: the data is the same.
    for (const rule of ["UD-ATK-01", "UD-ZON-01", "UD-DMG-01"]) expect(german.includes(rule)).toBe(message.content.includes(rule));
  });
});
