/**
 * Critical's lines in the attack dialog (CR-ATK-01, CR-ATK-02, CR-PAR-01 to CR-PAR-03), from the
 * core's `attackSummary`: the OB in all with the OB the attacker moved into its own parry, the
 * defender's DB in all with its parry against this attacker, then the exact chance of a miss,
 * hits only, each critical severity A to E and a fumble. Pure.
 */
import { attackSummary } from "../../../rules/critical/index.js";
import type { AttackOdds, AttackPlan } from "../../../rules/core/ruleset.js";
import type { DialogDetail } from "../../registry.js";

/** The rule each outcome's chance is read by. */
const OUTCOME_RULE: Record<string, string> = { fumble: "CR-ATK-01", miss: "CR-ATK-02", hitsOnly: "CR-ATK-02" };

/** The attack dialog's Critical lines of one target; the binding's `dialogDetails`. */
export function criticalDialogDetails(plan: AttackPlan, odds: AttackOdds): DialogDetail[] {
  const s = attackSummary(plan, odds);
  const lines: DialogDetail[] = [{ kind: "line", label: "FRAY.Critical.Dialog.Ob", value: s.ob, rule: "CR-ATK-01" }];
  if (s.parryMoved)
    lines.push({ kind: "line", label: s.parryMoved.label, data: s.parryMoved.data, value: s.parryMoved.value, rule: s.parryMoved.rule });
  lines.push({ kind: "line", label: "FRAY.Critical.Dialog.Db", value: s.db, rule: "CR-ATK-01" });
  if (s.parry) lines.push({ kind: "line", label: s.parry.label, data: s.parry.data, value: s.parry.value, rule: s.parry.rule });
  for (const o of s.outcomes) {
    const severity = o.id.length === 1;
    lines.push({
      kind: "chance",
      label: severity ? "FRAY.Critical.Dialog.Outcome.critical" : `FRAY.Critical.Dialog.Outcome.${o.id}`,
      ...(severity ? { data: { severity: o.id } } : {}),
      value: o.chance,
      rule: severity ? "CR-CRT-02" : OUTCOME_RULE[o.id]!,
    });
  }
  return lines;
}
