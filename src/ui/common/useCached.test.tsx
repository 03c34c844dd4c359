import { act, render, screen } from '@testing-library/react'
import { StrictMode, useState } from 'react'
import { describe, expect, it } from 'vitest'
import { ensure, type CacheQuery } from '../../api/cache.ts'
import { useCached } from './useCached.ts'

function deferred<T>() {
  let resolve!: (v: T) => void
  let reject!: (e: unknown) => void
  const promise = new Promise<T>((res, rej) => { resolve = res; reject = rej })
  return { promise, resolve, reject }
}

describe('useCached', () => {
  it('reads what a loader started without asking again, keeps old data while a new key loads', async () => {
    const runs: { key: string; d: ReturnType<typeof deferred<string>> }[] = []
    const query = (key: string): CacheQuery<string> => ({ key: `t1|${key}`, run: () => { const d = deferred<string>(); runs.push({ key, d }); return d.promise } })
    // The route loader starts the request before the page renders.
    void ensure(query('a'))
    let setKey!: (k: string) => void
    function Probe() {
      const [key, set] = useState('a')
      setKey = set
      const s = useCached(query(key))
      return <p>{`${s.status}:${s.data ?? '-'}`}</p>
    }
    render(<StrictMode><Probe /></StrictMode>)
    expect(runs.map((r) => r.key)).toEqual(['a'])
    expect(screen.getByText('loading:-')).toBeInTheDocument()
    await act(async () => runs[0]!.d.resolve('A'))
    expect(screen.getByText('ok:A')).toBeInTheDocument()
    act(() => setKey('b'))
    expect(screen.getByText('loading:A')).toBeInTheDocument()
    expect(runs.map((r) => r.key)).toEqual(['a', 'b'])
    act(() => setKey('c'))
    await act(async () => runs[1]!.d.resolve('B'))
    expect(screen.getByText('loading:A')).toBeInTheDocument()
    await act(async () => runs[2]!.d.resolve('C'))
    expect(screen.getByText('ok:C')).toBeInTheDocument()
    expect(runs.map((r) => r.key)).toEqual(['a', 'b', 'c'])
  })

  it('reports errors and reloads', async () => {
    let calls = 0
    let fail = true
    let reload!: () => void
    function Probe() {
      const s = useCached<string>({ key: 't2', run: async () => { calls++; if (fail) throw new Error('nope'); return 'fine' } })
      reload = s.reload
      return <p>{`${s.status}:${s.data ?? '-'}:${s.error instanceof Error ? s.error.message : ''}`}</p>
    }
    render(<Probe />)
    expect(await screen.findByText('error:-:nope')).toBeInTheDocument()
    fail = false
    act(() => reload())
    expect(await screen.findByText('ok:fine:')).toBeInTheDocument()
    expect(calls).toBe(2)
  })

  it('is idle without a query', () => {
    function Probe() {
      const s = useCached(undefined)
      return <p>{s.status}</p>
    }
    render(<Probe />)
    expect(screen.getByText('idle')).toBeInTheDocument()
  })
})
