import type { PipelineMode } from './extraction-types.js';

export interface ModeFlags {
  PIPELINE_ENABLED: boolean;
  PIPELINE_SHADOW_MODE: boolean;
  MUTATIONS_FROZEN: boolean;
  ALLOW_UPDATE_DELETE: boolean;
}

/**
 * The pipeline mode composed from the flags (disabled, shadow, controlled-write, full, frozen). Frozen wins over
 * shadow: both still run extraction and decisions and audit every proposal, but apply nothing.
 */
export function pipelineMode(flags: ModeFlags): PipelineMode {
  if (!flags.PIPELINE_ENABLED) return 'disabled';
  if (flags.MUTATIONS_FROZEN) return 'frozen';
  if (flags.PIPELINE_SHADOW_MODE) return 'shadow';
  return flags.ALLOW_UPDATE_DELETE ? 'full' : 'controlled-write';
}

/** Whether proposals may change memories and the graph in this mode. */
export function writesAllowed(mode: PipelineMode): boolean {
  return mode === 'controlled-write' || mode === 'full';
}
