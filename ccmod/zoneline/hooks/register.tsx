// zoneline as a Claude Code mod.
//
// - A zone row above the prompt, beside any status line: zone in its colour, tokens/window, the
//   distance to auto-compact, the pending step. Every number, word and colour is the answer of
//   `zoneline mod status` (the same render and warning loop as zoneline's status line): no rule
//   is written twice.
// - The instructions for the summariser come from zoneline's PreCompact hook, on every
//   compaction (the automatic one, /compact, this mod's): the mod adds none, so they are given
//   once.
// - [mod] compact_at (off by default): once an idle session is past it, a fork of the
//   conversation writes the checkpoint (nothing joins the conversation), `zoneline checkpoint
//   verify` checks it, and the mod compacts (the PreCompact hook names the checkpoint to the
//   summariser). A failed step stops
//   the flow with a note on the row; nothing more is sent. A turn never waits on the fork.
// - A receipt on the row after a compaction: tokens before and after, checkpoint restored or not.
import { atom, read, update } from 'claude-code'
import type { EngineInterface, Register } from 'claude-code'

import type { RowPiece, ZoneReceipt, ZoneStatus } from '../types'

const status = atom({ plugin: 'zoneline-mod', key: 'status' } as const, null)
const note = atom({ plugin: 'zoneline-mod', key: 'note' } as const, null)
const receipt = atom({ plugin: 'zoneline-mod', key: 'receipt' } as const, null)

// How long one binary call may take; the status call is a few milliseconds.
const RUN_MS = 10_000
// How long the receipt stays on the row.
const RECEIPT_MS = 10 * 60_000

// The flow's state, for this load of the module: one flow at a time, and none again after a
// failure until the next compaction (the compaction count moves) so nothing more is sent.
let flowing = false
let failedAt: number | null = null
// The compaction count when the last flow that compacted started (null: none yet). A new flow
// waits until the count moved since then and the context fell below compact_at and climbed back
// past it (rearmed), so a compaction that leaves the session past compact_at never loops.
let lastFlow: number | null = null
let rearmed = true
// Compactions refused (a turn was running): the verified checkpoint is kept and the compaction
// is retried at the next turn.complete without a new fork, this many times at most.
let refused = 0
const MAX_REFUSED = 3
// The cells the row has (the band's bodyColumns at the last draw; 0 until then): the binary fits
// the row to it as it fits the status line.
let columns = 0

// The zoneline binary: $ZONELINE_BIN, else the path `zoneline install -mod` wrote beside the
// manifest, else `zoneline` on PATH.
export const binary = async ($: EngineInterface): Promise<string> => {
  const env = (await $.env.get('ZONELINE_BIN'))?.trim()
  if (env) return env
  try {
    const written = (await $.fs.read(`${$.plugin.root}/zoneline.path`)).trim()
    if (written) return written
  } catch {
    // not installed by zoneline install -mod: PATH
  }
  return 'zoneline'
}

const run = async ($: EngineInterface, args: string[], stdin?: string) =>
  $.process.run([await binary($), ...args], { timeoutMs: RUN_MS, ...(stdin === undefined ? {} : { stdin }) })

// The status line's JSON, from what the engine knows: zoneline reads it as its status line does.
// tokens, when given, stands for the engine's count (a compaction's tokensAfter, before the
// engine's own usage has caught up).
const statusInput = async ($: EngineInterface, tokensNow?: number) => {
  const [usage, id, model, cwd, root, version] = await Promise.all([
    $.session.usage(),
    $.session.id(),
    $.session.model().catch(() => ''),
    $.session.cwd().catch(() => ''),
    $.session.root().catch(() => ''),
    $.session
      .version()
      .then(v => v.version)
      .catch(() => ''),
  ])
  const transcript = await $.session
    .info()
    .then(i => i.transcriptPath)
    .catch(() => '')
  const tokens = tokensNow ?? usage.context?.tokens
  return JSON.stringify({
    session_id: id,
    transcript_path: transcript,
    cwd,
    version,
    ...(root === '' ? {} : { workspace: { current_dir: cwd, project_dir: root } }),
    model: { id: model },
    context_window: {
      context_window_size: usage.context?.window ?? 0,
      ...(tokens === undefined || tokens === 0 ? {} : { current_usage: { input_tokens: tokens } }),
    },
  })
}

// Asks the binary for the zone, and keeps the answer for the row.
export const refresh = async ($: EngineInterface, tokensNow?: number): Promise<ZoneStatus | null> => {
  const width = columns > 0 ? ['-width', String(columns)] : []
  const out = await run($, ['mod', 'status', ...width], await statusInput($, tokensNow))
  let next: ZoneStatus | null = null
  try {
    next = JSON.parse(out.stdout) as ZoneStatus
  } catch {
    next = null
  }
  if (next !== null) {
    const was = await read($, status)
    if (was !== null && next.compactions !== was.compactions) failedAt = null
    if (next.known && next.compact_at > 0 && next.tokens < next.compact_at) rearmed = true
    await update($, status, () => next)
  }
  return next
}

const stop = async ($: EngineInterface, why: string) => {
  failedAt = (await read($, status))?.compactions ?? 0
  await update($, note, () => `zoneline: ${why}; nothing was sent`)
}

// The compact_at flow: fork → checkpoint written → verified → compact with the ready line. s is
// the status the flow starts from. A checkpoint already fresh and verified (a /compact-prep one,
// or the one a refused compaction kept) is used as it is: no fork.
export const compactFlow = async ($: EngineInterface, s: ZoneStatus) => {
  const id = await $.session.id()
  let ready: ZoneStatus | null = s
  if (!s.checkpoint_fresh || !s.checkpoint_verified) {
    await update($, note, () => 'zoneline: writing the checkpoint…')
    const prompt = await run($, ['mod', 'fork-prompt', '-session', id])
    if (prompt.exitCode !== 0) return stop($, `fork-prompt failed: ${firstLine(prompt.stderr)}`)
    const reply = await $.model.fork({ prompt: prompt.stdout })
    if (!reply.isAnswered) return stop($, `the fork did not answer (${reply.reason})`)
    const path = await run($, ['checkpoint', 'path', '-session', id])
    if (path.exitCode !== 0) return stop($, `checkpoint path failed: ${firstLine(path.stderr)}`)
    // save-checkpoint verifies before it writes: a bad answer leaves the checkpoint there alone.
    const saved = await run($, ['mod', 'save-checkpoint', '-session', id], reply.text)
    if (saved.exitCode !== 0 || saved.stdout.trim() !== path.stdout.trim()) {
      return stop($, `the checkpoint was not written: ${firstLine(saved.stderr)}`)
    }
    const verified = await run($, ['checkpoint', 'verify', '-session', id])
    if (verified.exitCode !== 0) return stop($, `checkpoint verify failed: ${firstLine(verified.stderr)}`)
    ready = await refresh($)
  }
  if (ready === null || !ready.checkpoint_fresh || !ready.checkpoint_verified) return stop($, 'the checkpoint is not verified')
  // Still the moment to compact: no compaction ran meanwhile, and the session is still past the point.
  if (ready.compactions !== s.compactions) {
    await update($, note, () => 'zoneline: a compaction ran meanwhile; the checkpoint is kept, nothing was sent')
    return
  }
  if (!ready.compact_due) {
    await update($, note, () => null)
    return
  }
  await update($, note, () => 'zoneline: compacting…')
  let done: Awaited<ReturnType<EngineInterface['session']['compact']>>
  try {
    done = await $.session.compact({})
  } catch (err) {
    // Refused (a turn is running): keep the verified checkpoint, try again after the next turn.
    const why = err instanceof Error ? err.message.slice(0, 160) : String(err)
    refused++
    if (refused > MAX_REFUSED) {
      refused = 0
      return stop($, `the compaction was refused ${MAX_REFUSED + 1} times (${why})`)
    }
    await update($, note, () => `zoneline: the compaction was refused (${why}); the verified checkpoint is kept, trying again after the next turn`)
    return
  }
  refused = 0
  if (done.skip !== undefined) return stop($, `the compaction did not run: ${done.skip}`)
  lastFlow = s.compactions
  rearmed = false
  await compacted($, done.tokensBefore, done.tokensAfter)
  await refresh($, done.tokensAfter).catch(() => null)
  if (done.tokensAfter !== undefined && ready.compact_at > 0 && done.tokensAfter >= ready.compact_at) {
    await update(
      $,
      note,
      () =>
        `zoneline: the compaction left ${short(done.tokensAfter ?? 0)}, still past compact_at ${short(ready.compact_at)}: no compaction again until the context falls below it`,
    )
    return
  }
  await update($, note, () => null)
}

const firstLine = (s: string) => (s.split('\n').find(l => l.trim() !== '') ?? 'no output').slice(0, 160)

// Records a compaction for the receipt; the restore is the hooks' and is read back later.
const compacted = async ($: EngineInterface, before?: number, after?: number) => {
  const at = await $.clock.now()
  await update($, receipt, () => ({ ...(before === undefined ? {} : { before }), ...(after === undefined ? {} : { after }), restored: false, at }))
}

// The receipt's restore, as the hooks recorded it.
const readReceipt = async ($: EngineInterface) => {
  const r = await read($, receipt)
  if (r === null) return
  if ((await $.clock.now()) - r.at > RECEIPT_MS) {
    await update($, receipt, () => null)
    return
  }
  if (r.restored) return
  const out = await run($, ['mod', 'receipt', '-session', await $.session.id()])
  try {
    const got = JSON.parse(out.stdout) as { restore: string; checkpoint_restored: boolean }
    if (got.checkpoint_restored) await update($, receipt, cur => (cur === null ? cur : { ...cur, restored: true }))
  } catch {
    // an old binary: the receipt shows no restore
  }
}

const afterTurn = async ($: EngineInterface) => {
  const s = await refresh($)
  await readReceipt($)
  if (s === null || !s.compact_due || flowing || failedAt === s.compactions) return
  // After a flow that compacted: only once the count moved and the context climbed back past compact_at.
  if (lastFlow !== null && (s.compactions === lastFlow || !rearmed)) return
  flowing = true
  // Not awaited: the turn never waits on the fork.
  void compactFlow($, s)
    .catch(async (err: unknown) => stop($, err instanceof Error ? err.message.slice(0, 160) : String(err)))
    .finally(() => {
      flowing = false
    })
}

export const register: Register = on => {
  on('session.start', async ($, e, next) => {
    const ran = await next(e)
    await refresh($).catch(() => undefined)
    return ran
  })

  on('prompt.submit', async ($, e, next) => {
    const ran = await next(e)
    void refresh($).catch(() => undefined)
    return ran
  }).catch(($, e, next) => next(e))

  on('turn.complete', async ($, e, next) => {
    const ran = await next(e)
    if (e.agentId === undefined) await afterTurn($).catch(() => undefined)
    return ran
  })

  on('session.end', async ($, e, next) => {
    const ran = await next(e)
    if (e.reason === 'clear' || e.reason === 'resume') {
      await update($, status, () => null)
      await update($, note, () => null)
      await update($, receipt, () => null)
      failedAt = null
      lastFlow = null
      rearmed = true
      refused = 0
    }
    return ran
  })

  // The receipt after a compaction of the main conversation. Its instructions are left as they
  // are: zoneline's PreCompact hook adds its own to every compaction.
  on('session.compact', async ($, e, next) => {
    const isMain = e.agentId === undefined
    const ran = await next(e)
    if (isMain && e.trigger !== 'plugin' && e.trigger !== 'precompute' && ran.skip === undefined) {
      await compacted($, ran.tokensBefore, ran.tokensAfter)
      // The row agrees with the status line at once: the numbers after the compaction.
      await refresh($, ran.tokensAfter).catch(() => null)
    }
    return ran
  }).catch(($, e, next) => next(e))

  on('ui.render', { component: 'AbovePrompt' }, async ($, e, next) => {
    const s = await read($, status)
    if (e.props.hasSurvey || s === null) return next(e)
    // A new width: ask the binary for the row fitted to it (drawn once the answer is in).
    if (e.props.bodyColumns > 0 && e.props.bodyColumns !== columns) {
      columns = e.props.bodyColumns
      void refresh($).catch(() => undefined)
    }
    const { Box, Text } = $.ui.resolve(e)
    const n = await read($, note)
    const r = await read($, receipt)
    return (
      <Box flexDirection="column">
        <Text wrap="truncate-end">
          {rowOf(s).map((p, i) => (
            <Text key={String(i)} color={p.color || undefined} bold={p.bold} dimColor={p.dim}>
              {p.text}
            </Text>
          ))}
        </Text>
        {r !== null && (
          <Text color="success" wrap="truncate-end">
            {`✓ compacted${r.before === undefined ? '' : ` ${short(r.before)}`}${r.after === undefined ? '' : ` → ${short(r.after)}`} · checkpoint ${r.restored ? 'restored' : 'not restored'}`}
          </Text>
        )}
        {n !== null && (
          <Text color="warning" wrap="truncate-end">
            {n}
          </Text>
        )}
      </Box>
    )
  })
}

// The row: the binary's, fitted to the width as the status line is; from the single fields for
// an answer without one (a binary older than the mod).
const rowOf = (s: ZoneStatus): RowPiece[] => {
  if (s.row !== undefined) return s.row
  const row: RowPiece[] = [{ text: s.zone_text, color: s.color, bold: s.bold, dim: s.color === '' }]
  const add = (text: string, color: string, bold: boolean, dim: boolean) => {
    if (text !== '') row.push({ text: ' ', color: '', bold: false, dim: false }, { text, color, bold, dim })
  }
  add(s.tokens_text, '', false, false)
  add(s.compact_text, s.compact_urgent ? 'error' : s.compact_warn ? 'warning' : '', false, !s.compact_urgent && !s.compact_warn)
  add(s.step, s.step_color, true, false)
  if (s.problems.length > 0) add(`⚠ ${s.problems[0]}`, 'warning', false, false)
  return row
}

const short = (n: number) => (n >= 1_000_000 ? `${+(n / 1_000_000).toFixed(1)}M` : n >= 1000 ? `${Math.round(n / 1000)}k` : `${n}`)
