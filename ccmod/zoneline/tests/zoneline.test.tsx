import { describe, expect, mock, test } from 'claude-code/testing'
import type { On } from 'claude-code'
import type { Engine } from 'claude-code/testing'

const ID = '3f1c2d4e-1111-4222-8333-444455556666'
const CK = `/state/sessions/${ID}/checkpoint.md`

const MSGS = [{ role: 'user', text: 'hello', toolUses: [] }]

const BAND = {
  plugin: 'zoneline-mod',
  component: 'AbovePrompt',
  props: { hasSurvey: false, isCollapsed: false, isWorking: false, maxRows: 10, bodyColumns: 120 },
}

// What `zoneline mod status` answers (the binary is mocked: its own tests hold its rules).
const answer = (over: Record<string, unknown> = {}) => ({
  v: 1, session: ID, zone: 'dumb', zone_text: '● DUMB', color: '#f0463c', bold: true,
  tokens: 140000, known: true, window: 200000, tokens_text: '140k/200k', auto_compact_on: true,
  auto_compact: 167000, to_compact: 27000, compact_text: '~27k to compact', compact_warn: true,
  compact_urgent: false, prep: 120000, prep_crossed: true, tier: 'dumb', step: '⚑ /compact-prep',
  step_color: '#f1c84a', compactions: 0, compact_at: 0, compact_due: false, checkpoint: CK,
  checkpoint_fresh: false, checkpoint_verified: false, problems: [], ...over,
})

type World = {
  status: Record<string, unknown>
  verifyOK: boolean
  forkText: string
  runs: string[][]
  stdins: string[]
  compacts: { trigger: string; instructions?: string }[]
  forks: number
  // What the engine's compaction does: tokens after it; throw to refuse it (a turn is running).
  tokensAfter: number
  refuse: number
  refusals: number
  // Runs when the fork answers (the world may change meanwhile).
  onFork?: () => void
}

async function start($: Engine, on: On, over: Partial<World> = {}): Promise<World> {
  const w: World = { status: answer(), verifyOK: true, forkText: '# zoneline checkpoint\nsession: x\n', runs: [], stdins: [], compacts: [], forks: 0, tokensAfter: 3000, refuse: 0, refusals: 0, ...over }
  mock.clock(on, { now: 1_000_000 })
  on('env.get', (_$, e) => ({ value: e.name === 'ZONELINE_BIN' ? '/bin/zoneline' : undefined }) as any)
  on('session.id', () => ({ value: ID }) as any)
  on('session.model', () => ({ value: 'claude-sonnet-4-5' }) as any)
  on('session.cwd', () => ({ value: '/work' }) as any)
  on('session.root', () => ({ value: '/work' }) as any)
  on('session.version', () => ({ value: { version: '2.1.332' } }) as any)
  on('session.info', () => ({ value: { transcriptPath: '/t.jsonl' } }) as any)
  on('session.usage', () => ({ value: { startedAt: 0, rateLimits: [], context: { tokens: 140000, window: 200000, percent: 70 } } }) as any)
  on('process.run', (_$, e) => {
    const argv = [...e.argv]
    w.runs.push(argv)
    w.stdins.push(e.init?.stdin ?? '')
    const sub = argv.slice(1, 3).join(' ')
    const ok = (stdout: string) => ({ value: { exitCode: 0, stdout, stderr: '', isStdoutTruncated: false, isStderrTruncated: false } })
    const bad = (stderr: string) => ({ value: { exitCode: 1, stdout: '', stderr, isStdoutTruncated: false, isStderrTruncated: false } })
    if (sub === 'mod status') return ok(JSON.stringify(w.status)) as any
    if (sub === 'mod fork-prompt') return ok('[zoneline] write the checkpoint') as any
    if (sub === 'checkpoint path') return ok(`${CK}\n`) as any
    if (sub === 'mod save-checkpoint') return ok(`${CK}\n`) as any
    if (sub === 'checkpoint verify') {
      if (!w.verifyOK) return bad(`${CK}:9: ## Next: missing`) as any
      w.status = { ...w.status, checkpoint_fresh: true, checkpoint_verified: true }
      return ok('zoneline: checkpoint OK') as any
    }
    if (sub === 'mod receipt') return ok('{"v":1,"restore":"session_start","checkpoint_restored":true}') as any
    return bad('unknown') as any
  })
  on('model.fork', () => {
    w.forks++
    w.onFork?.()
    return { value: { isAnswered: true, text: w.forkText, usage: { input_tokens: 1, output_tokens: 1 } } } as any
  })
  on('session.compact', (_$, e) => {
    if (w.refuse > 0) {
      w.refuse--
      w.refusals++
      throw new Error('a turn is running')
    }
    w.compacts.push({ trigger: e.trigger ?? 'plugin', ...(e.instructions === undefined ? {} : { instructions: e.instructions }) })
    // What the hooks and the transcript then tell `zoneline mod status`: one more compaction, the
    // checkpoint is the last compaction's, the context is what the compaction left.
    const c = (w.status.compactions as number) + 1
    const due = (w.status.compact_at as number) > 0 && w.tokensAfter >= (w.status.compact_at as number)
    w.status = { ...w.status, compactions: c, tokens: w.tokensAfter, compact_due: due, checkpoint_fresh: false, checkpoint_verified: false }
    return { messages: MSGS, tokensBefore: 180000, tokensAfter: w.tokensAfter } as any
  })
  on('session.start', (_$, e) => ({ sessionId: ID, cwd: e.cwd }) as any)
  on('turn.complete', () => ({ text: '' }) as any)
  await $.session.start({ surface: 'terminal', isInteractive: true, cwd: '/work' } as any)
  return w
}

const turn = ($: Engine) =>
  $.turn.complete({ answer: 'ok', durationMs: 1, isAborted: false, turnId: 't', reason: 'answer' } as any)

// The row's piece that shows exactly text (find matches the row's Text too, by inclusion).
const piece = async (ui: any, text: string) =>
  ((await ui.findAll({ type: 'Text', text })) as { text: string; props: Record<string, unknown> }[]).find(t => t.text === text)

// The flow runs in the background: let it settle.
const settle = async () => {
  const later = (globalThis as any).setTimeout as (f: () => void, ms: number) => void
  for (let i = 0; i < 20; i++) await new Promise<void>(r => later(r, 5))
}

describe('zoneline mod', () => {
  test('the row shows the binary answer: zone in its colour, tokens, distance, pending step', async ($, on) => {
    const w = await start($, on)
    expect(w.runs[0]).toEqual(['/bin/zoneline', 'mod', 'status'])
    const sent = JSON.parse(w.stdins[0] ?? '{}')
    expect(sent.session_id).toBe(ID)
    expect(sent.workspace).toEqual({ current_dir: '/work', project_dir: '/work' })
    expect(sent.version).toBe('2.1.332')
    expect(sent.context_window).toEqual({ context_window_size: 200000, current_usage: { input_tokens: 140000 } })
    for (const surface of ['terminal', 'desktop'] as const) {
      const ui = await $.ui.mount({ surface, ...BAND } as any)
      const zone = await piece(ui, '● DUMB')
      expect(zone).toBeDefined()
      expect(zone?.props.color).toBe('#f0463c')
      expect(await ui.find({ type: 'Text', text: '140k/200k' })).toBeDefined()
      expect(await ui.find({ type: 'Text', text: '~27k to compact' })).toBeDefined()
      expect(await ui.find({ type: 'Text', text: '⚑ /compact-prep' })).toBeDefined()
      await ui.unmount()
    }
  })

  test('the row is the binary answer fitted to the band: asked with its width, drawn on one row', async ($, on) => {
    const run = (text: string, color = '', bold = false, dim = false) => ({ text, color, bold, dim })
    const row = [run('● DUMB', '#f0463c', true), run(' '), run('140k/200k', '#f0463c', true), run(' · '), run('⚑ /compact-prep', '#f1c84a', true)]
    const w = await start($, on, { status: answer({ width: 40, row }) })
    const ui = await $.ui.mount({ surface: 'terminal', ...BAND, props: { ...BAND.props, bodyColumns: 40 } } as any)
    await settle()
    expect(w.runs).toContainEqual(['/bin/zoneline', 'mod', 'status', '-width', '40'])
    const zone = await piece(ui, '● DUMB')
    expect(zone?.props.color).toBe('#f0463c')
    expect(await ui.find({ type: 'Text', text: '140k/200k' })).toBeDefined()
    // The binary left the distance out at this width: the row does not add it back.
    expect(await ui.find({ type: 'Text', text: '~27k to compact' })).toBeUndefined()
    await ui.unmount()
  })

  test('right after a compaction the row shows the numbers after it, as the status line does', async ($, on) => {
    const w = await start($, on)
    await $.session.compact({ trigger: 'manual', messages: MSGS } as any)
    const last = w.runs.map((a, i) => [a.slice(1, 3).join(' '), i] as const).filter(([sub]) => sub === 'mod status').pop()
    const sent = JSON.parse(w.stdins[last?.[1] ?? 0] ?? '{}')
    expect(sent.context_window.current_usage).toEqual({ input_tokens: 3000 })
    const ui = await $.ui.mount({ surface: 'terminal', ...BAND } as any)
    await settle()
    expect(await ui.find({ type: 'Text', text: /compacted 180k → 3k/ })).toBeDefined()
    await ui.unmount()
  })

  test('compactions keep their own instructions: zoneline\'s PreCompact hook adds its own, once', async ($, on) => {
    const w = await start($, on)
    await $.session.compact({ trigger: 'auto', messages: MSGS } as any)
    await $.session.compact({ trigger: 'manual', instructions: 'mine', messages: MSGS } as any)
    await $.session.compact({ trigger: 'auto', agentId: 'a1', messages: MSGS } as any)
    expect(w.compacts).toEqual([
      { trigger: 'auto' },
      { trigger: 'manual', instructions: 'mine' },
      { trigger: 'auto' },
    ])
    const ui = await $.ui.mount({ surface: 'terminal', ...BAND } as any)
    expect(await ui.find({ type: 'Text', text: /compacted 180k → 3k/ })).toBeDefined()
    await ui.unmount()
  })

  test('compact_at: fork, write, verify, then compact', async ($, on) => {
    const w = await start($, on, { status: answer({ compact_at: 120000, compact_due: true }) })
    await turn($)
    await settle()
    expect(w.forks).toBe(1)
    const subs = w.runs.map(a => a.slice(1, 3).join(' '))
    expect(subs).toEqual(expect.arrayContaining(['mod fork-prompt', 'checkpoint path', 'mod save-checkpoint', 'checkpoint verify']))
    expect(w.stdins[subs.indexOf('mod save-checkpoint')]).toBe(w.forkText)
    expect(w.compacts).toEqual([{ trigger: 'plugin' }])
  })

  test('compact_at: a checkpoint that fails verify stops the flow, sends nothing, and says so', async ($, on) => {
    const w = await start($, on, { status: answer({ compact_at: 120000, compact_due: true }), verifyOK: false })
    await turn($)
    await settle()
    expect(w.forks).toBe(1)
    expect(w.compacts).toEqual([])
    const ui = await $.ui.mount({ surface: 'terminal', ...BAND } as any)
    expect(await ui.find({ type: 'Text', text: /checkpoint verify failed.*nothing was sent/ })).toBeDefined()
    await ui.unmount()
    // Not again on the next turn: nothing more is sent until the next compaction.
    await turn($)
    await settle()
    expect(w.forks).toBe(1)
  })

  test('compact_at: a checkpoint already fresh and verified is used as it is, no fork', async ($, on) => {
    const w = await start($, on, {
      status: answer({ compact_at: 120000, compact_due: true, checkpoint_fresh: true, checkpoint_verified: true }),
    })
    await turn($)
    await settle()
    expect(w.forks).toBe(0)
    expect(w.runs.map(a => a.slice(1, 3).join(' '))).not.toContain('mod save-checkpoint')
    expect(w.compacts).toEqual([{ trigger: 'plugin' }])
  })

  test('compact_at: a compaction that leaves the session past compact_at stops, says so, and does not loop', async ($, on) => {
    const w = await start($, on, { status: answer({ compact_at: 120000, compact_due: true }), tokensAfter: 130000 })
    await turn($)
    await settle()
    expect(w.compacts.length).toBe(1)
    const ui = await $.ui.mount({ surface: 'terminal', ...BAND } as any)
    expect(await ui.find({ type: 'Text', text: /left 130k, still past compact_at 120k/ })).toBeDefined()
    await ui.unmount()
    // Still due, the count moved: no new fork, no new compaction, turn after turn.
    for (let i = 0; i < 3; i++) {
      await turn($)
      await settle()
    }
    expect(w.forks).toBe(1)
    expect(w.compacts.length).toBe(1)
    // The context falls below compact_at, then climbs back past it: a new flow.
    w.status = { ...w.status, tokens: 60000, compact_due: false }
    await turn($)
    await settle()
    w.status = { ...w.status, tokens: 140000, compact_due: true }
    w.tokensAfter = 3000
    await turn($)
    await settle()
    expect(w.forks).toBe(2)
    expect(w.compacts.length).toBe(2)
  })

  test('compact_at: a compaction that ran while the fork wrote the checkpoint: nothing more is sent', async ($, on) => {
    const w = await start($, on, { status: answer({ compact_at: 120000, compact_due: true }) })
    w.onFork = () => {
      w.status = { ...w.status, compactions: 1, tokens: 4000, compact_due: false }
    }
    await turn($)
    await settle()
    expect(w.forks).toBe(1)
    expect(w.compacts).toEqual([])
  })

  test('compact_at: no longer due after the fork: nothing is sent', async ($, on) => {
    const w = await start($, on, { status: answer({ compact_at: 120000, compact_due: true }) })
    w.onFork = () => {
      w.status = { ...w.status, compact_due: false }
    }
    await turn($)
    await settle()
    expect(w.forks).toBe(1)
    expect(w.compacts).toEqual([])
  })

  test('compact_at: a refused compaction keeps the checkpoint and runs after the next turn, without a new fork', async ($, on) => {
    const w = await start($, on, { status: answer({ compact_at: 120000, compact_due: true }), refuse: 1 })
    await turn($)
    await settle()
    expect(w.forks).toBe(1)
    expect(w.refusals).toBe(1)
    expect(w.compacts).toEqual([])
    const ui = await $.ui.mount({ surface: 'terminal', ...BAND } as any)
    expect(await ui.find({ type: 'Text', text: /refused.*trying again after the next turn/ })).toBeDefined()
    await ui.unmount()
    await turn($)
    await settle()
    expect(w.forks).toBe(1)
    expect(w.compacts).toEqual([{ trigger: 'plugin' }])
  })

  test('compact_at off: no fork', async ($, on) => {
    const w = await start($, on)
    await turn($)
    await settle()
    expect(w.forks).toBe(0)
    expect(w.compacts).toEqual([])
  })
})
