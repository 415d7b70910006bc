/**
 * The token HUD of the stand-in. In v13 the HUD is an ApplicationV2
 * (`foundry.applications.hud.TokenHUD`, https://foundryvtt.com/api/v13/classes/foundry.applications.hud.TokenHUD.html),
 * and every ApplicationV2 calls `render<ClassName>(application, element, context, options)` for each
 * class of its chain as it renders, `element` its HTMLElement, which handlers may change
 * (https://foundryvtt.com/api/functions/hookEvents.renderApplicationV2.html); so `renderTokenHUD`
 * runs with the HUD and its element. The HUD's controls sit in two columns, `.col.left` and
 * `.col.right` (as public v13 modules add theirs, e.g. Unarekin/FoundryVTT-Sprite-Animations
 * `src/tokenHUD.ts`). The elements here have only the DOM members the glue uses: creating a
 * button, classes, attributes, `dataset`, appending, class selectors and click listeners.
 */
import type { FoundryStub } from "./foundry-stub.js";

/** A DOM element of the stand-in HUD. */
export class HudNode {
  children: HudNode[] = [];
  attributes: Record<string, string> = {};
  dataset: Record<string, string | undefined> = {};
  innerHTML = "";
  type = "";
  readonly listeners: ((event: { preventDefault(): void }) => void)[] = [];
  constructor(
    readonly tagName: string,
    public className = "",
  ) {}
  /** `document`, whose `createElement` makes a new node. */
  get ownerDocument() {
    return { createElement: (tag: string) => new HudNode(tag.toUpperCase()) };
  }
  setAttribute(name: string, value: string): void {
    this.attributes[name] = value;
  }
  getAttribute(name: string): string | null {
    return this.attributes[name] ?? null;
  }
  append(...nodes: HudNode[]): void {
    this.children.push(...nodes);
  }
  addEventListener(_type: string, fn: (event: { preventDefault(): void }) => void): void {
    this.listeners.push(fn);
  }
  /** Clicks the node: its listeners run (what they start is not awaited, as in a browser). */
  click(): void {
    for (const fn of this.listeners) fn({ preventDefault() {} });
  }
  /** Every node under this one, depth first. */
  all(): HudNode[] {
    return this.children.flatMap((c) => [c, ...c.all()]);
  }
  /** Nodes matching a selector of classes (`.col.right`). */
  querySelectorAll(selector: string): HudNode[] {
    const wanted = selector.split(".").filter(Boolean);
    return this.all().filter((n) => wanted.every((c) => n.className.split(/\s+/).includes(c)));
  }
  querySelector(selector: string): HudNode | null {
    return this.querySelectorAll(selector)[0] ?? null;
  }
}

/**
 * Renders a token HUD for a token's actor as v13 does: the HUD element with its two columns, then
 * the `renderTokenHUD(hud, element, context, options)` hook on the current client.
 * @returns the HUD's element and the buttons Fray added (`data-fray-hud`).
 */
export function renderTokenHud(stub: FoundryStub, token: { actor: unknown; document?: unknown }) {
  const element = new HudNode("DIV", "placeable-hud");
  const left = new HudNode("DIV", "col left");
  const right = new HudNode("DIV", "col right");
  element.append(left, right);
  const hud = { object: token, document: token.document ?? { actor: token.actor }, actor: token.actor, element };
  stub.Hooks.callAll("renderTokenHUD", hud, element, {}, {});
  const buttons = element.all().filter((n) => n.dataset.frayHud);
  return { element, left, right, buttons, button: (id: string) => buttons.find((b) => b.dataset.frayHud === id) };
}
