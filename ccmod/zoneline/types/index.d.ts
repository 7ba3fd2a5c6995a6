/** One answer of `zoneline mod status`: every rule and word comes from the binary. */
export type ZoneStatus = {
  v: number
  session: string
  zone: string
  zone_text: string
  color: string
  bold: boolean
  tokens: number
  known: boolean
  window: number
  tokens_text: string
  auto_compact_on: boolean
  auto_compact: number
  to_compact: number
  compact_text: string
  compact_warn: boolean
  compact_urgent: boolean
  prep: number
  prep_crossed: boolean
  tier: string
  step: string
  step_color: string
  compactions: number
  compact_at: number
  compact_due: boolean
  checkpoint: string
  checkpoint_fresh: boolean
  checkpoint_verified: boolean
  /** The cells the row was fitted to (0: not fitted). */
  width?: number
  /** The row: the status line's zone, tokens, distance, step and problems, fitted to width. */
  row?: RowPiece[]
  problems: string[]
}

/** One run of the row in one colour. */
export type RowPiece = { text: string; color: string; bold: boolean; dim: boolean }

/** The row's receipt after a compaction. */
export type ZoneReceipt = { before?: number; after?: number; restored: boolean; at: number }

declare module 'claude-code' {
  interface PluginState {
    'zoneline-mod': {
      status: ZoneStatus | null
      note: string | null
      receipt: ZoneReceipt | null
    }
  }
}
