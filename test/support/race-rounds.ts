/**
 * `npm run test:slow` sets PATKIT_LONG_RACES=1 (vitest.config.ts, project `slow`): every long race
 * then runs its full number of rounds. `npm test` runs each race a few rounds, enough to meet every
 * branch of it, and CI runs both.
 */
export const LONG_RACES = process.env['PATKIT_LONG_RACES'] === '1'

/** `full` rounds in the slow command, `quick` in `npm test`. */
export function raceRounds(full: number, quick: number): number {
  return LONG_RACES ? full : quick
}
