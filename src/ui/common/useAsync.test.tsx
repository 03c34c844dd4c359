import { act, render, screen } from '@testing-library/react'
import { StrictMode, useState } from 'react'
import { describe, expect, it } from 'vitest'
import { useAsync } from './useAsync.ts'

function deferred<T>() {
  let resolve!: (v: T) => void
  let reject!: (e: unknown) => void
  const promise = new Promise<T>((res, rej) => { resolve = res; reject = rej })
  return { promise, resolve, reject }
}

describe('useAsync', () => {
  it('starts during render, keeps old data while a new key loads, ignores superseded runs', async () => {
    const runs: { key: string; d: ReturnType<typeof deferred<string>>; signal: AbortSignal }[] = []
    let setKey!: (k: string) => void
    function Probe() {
      const [key, set] = useState('a')
      setKey = set
      const s = useAsync((signal) => {
        const d = deferred<string>()
        runs.push({ key, d, signal })
        return d.promise
      }, key)
      return <p>{`${s.status}:${s.data ?? '-'}`}</p>
    }
    render(<Probe />)
    expect(runs.map((r) => r.key)).toEqual(['a'])
    expect(screen.getByText('loading:-')).toBeInTheDocument()
    await act(async () => runs[0]!.d.resolve('A'))
    expect(screen.getByText('ok:A')).toBeInTheDocument()
    act(() => setKey('b'))
    expect(screen.getByText('loading:A')).toBeInTheDocument()
    act(() => setKey('c'))
    expect(runs.map((r) => r.key)).toEqual(['a', 'b', 'c'])
    expect(runs[1]!.signal.aborted).toBe(true)
    await act(async () => runs[1]!.d.resolve('B'))
    expect(screen.getByText('loading:A')).toBeInTheDocument()
    await act(async () => runs[2]!.d.resolve('C'))
    expect(screen.getByText('ok:C')).toBeInTheDocument()
  })

  it('reports errors, reloads, and survives StrictMode remounts', async () => {
    let calls = 0
    let fail = true
    let reload!: () => void
    function Probe() {
      const s = useAsync(async () => {
        calls++
        if (fail) throw new Error('nope')
        return 'fine'
      }, 'k')
      reload = s.reload
      return <p>{s.status === 'error' ? `error:${(s.error as Error).message}` : `${s.status}:${s.data ?? '-'}`}</p>
    }
    render(<StrictMode><Probe /></StrictMode>)
    expect(await screen.findByText('error:nope')).toBeInTheDocument()
    fail = false
    act(() => reload())
    expect(await screen.findByText('ok:fine')).toBeInTheDocument()
    expect(calls).toBeGreaterThanOrEqual(2)
  })

  it('is idle without a function', () => {
    function Probe() {
      const s = useAsync<string>(undefined, 'k')
      return <p>{s.status}</p>
    }
    render(<Probe />)
    expect(screen.getByText('idle')).toBeInTheDocument()
  })
})
