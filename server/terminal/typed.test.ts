import { describe, expect, it } from 'vitest'
import { typedText } from './session.ts'

describe('typedText: the line a user typed, from the keys alone', () => {
  it.each([
    ['rm -rf /tmp/x', 'rm -rf /tmp/x'],
    ['rX\x7fm -f m', 'rm -f m'],
    ['rm x\x15ls', 'ls'],
    ['echo a rm\x17ls', 'echo a ls'],
    ['ls\x1b[A\x1b[D -l', 'ls -l'],
    ['\x1bOPls', 'ls'],
    ['  ls \t', 'ls'],
  ])('%j → %j', (keys, line) => {
    expect(typedText(keys)).toBe(line)
  })
})
