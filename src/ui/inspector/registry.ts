/**
 * Where the console's actors report to the built-in inspector (docs/machines/inspector.md). The root app actor
 * (main.tsx, only when the page was opened with `?inspect`) and every dialog flow (`useActorRef(…, { inspect:
 * inspectActors })`) pass `inspectActors` as their XState inspection observer. Nothing is kept unless recording
 * was started; the inspector's view, once loaded, takes what was recorded and then receives every event live.
 */
import type { InspectionEvent } from 'xstate'

type Sink = (event: InspectionEvent) => void

/** Cap of what is kept before the view connects (start-up events while the inspector's chunk loads). */
const EARLY_LIMIT = 5000
let recording = false
let sink: Sink | null = null
const early: InspectionEvent[] = []

export function inspectActors(event: InspectionEvent): void {
  if (sink) {
    try {
      sink(event)
    } catch (error) {
      // the inspector must never break the flow it watches
      console.error('inspector:', error)
    }
  }
  else if (recording && early.length < EARLY_LIMIT) early.push(event)
}

export function startRecording(): void {
  recording = true
}

/** Stops and forgets everything (the user may not inspect). */
export function stopRecording(): void {
  recording = false
  sink = null
  early.length = 0
}

/** The view connects: it gets what was recorded so far, then every event. */
export function connectInspector(next: Sink): InspectionEvent[] {
  sink = next
  return early.splice(0)
}
