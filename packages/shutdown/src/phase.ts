/**
 * Cleanups run phase by phase: every `'first'`, then every `'normal'`, then every `'last'`. Its own file:
 * the options that name a phase and the report that lists each cleanup's phase both need it, and neither
 * belongs to the other.
 */
export type CleanupPhase = 'first' | 'normal' | 'last'
