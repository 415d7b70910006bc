/**
 * Type configuration of the Foundry glue. Everything in `src/foundry` runs from the `init` hook
 * on, so `game.settings` and the other init-time members are typed as present; localized text is
 * only produced after `i18nInit` (sheets, chat cards, notifications), so `game.i18n` is too.
 */
export {};

declare module "@league-of-foundry-developers/foundry-vtt-types/configuration" {
  interface AssumeHookRan {
    init: true;
    i18nInit: true;
  }
}
