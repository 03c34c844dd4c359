/**
 * The playbook editor's text area: CodeMirror 6 with YAML highlighting (@codemirror/lang-yaml), loaded as a lazy
 * chunk by PlaybookEditorPage only. Controlled from outside by `value`/`onChange`; keyboard: the default keymap,
 * history (Ctrl+Z / Ctrl+Y) and Tab indenting (Escape then Tab leaves the editor, CodeMirror's rule).
 */
import { defaultKeymap, history, historyKeymap, indentWithTab } from '@codemirror/commands'
import { yaml } from '@codemirror/lang-yaml'
import { bracketMatching, defaultHighlightStyle, indentOnInput, syntaxHighlighting } from '@codemirror/language'
import { EditorState } from '@codemirror/state'
import { drawSelection, EditorView, highlightActiveLine, keymap, lineNumbers } from '@codemirror/view'
import { useEffect, useRef } from 'react'

export interface YamlEditorProps {
  value: string
  onChange: (value: string) => void
  label: string
  readOnly?: boolean
}

export default function YamlEditor({ value, onChange, label, readOnly = false }: YamlEditorProps) {
  const host = useRef<HTMLDivElement>(null)
  const view = useRef<EditorView | undefined>(undefined)
  const change = useRef(onChange)
  useEffect(() => { change.current = onChange }, [onChange])

  useEffect(() => {
    const v = new EditorView({
      parent: host.current!,
      state: EditorState.create({
        doc: value,
        extensions: [
          lineNumbers(), history(), drawSelection(), indentOnInput(), bracketMatching(), highlightActiveLine(),
          syntaxHighlighting(defaultHighlightStyle, { fallback: true }), yaml(),
          keymap.of([...defaultKeymap, ...historyKeymap, indentWithTab]),
          EditorState.readOnly.of(readOnly),
          EditorView.contentAttributes.of({ 'aria-label': label }),
          EditorView.updateListener.of((u) => { if (u.docChanged) change.current(u.state.doc.toString()) }),
          // Long lines wrap and the editor grows with its text: no scrolling region inside the page (axe's
          // scrollable-region-focusable; CodeMirror's scroller is not a tab stop).
          EditorView.lineWrapping,
          EditorView.theme({ '&': { fontSize: '13px' }, '.cm-content': { minHeight: '320px' }, '.cm-scroller': { overflow: 'visible', fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace' } }),
        ],
      }),
    })
    view.current = v
    return () => v.destroy()
    // The editor is made once per file (the page keys it by file); later `value`s come from typing.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [])

  useEffect(() => {
    const v = view.current
    if (v && v.state.doc.toString() !== value) v.dispatch({ changes: { from: 0, to: v.state.doc.length, insert: value } })
  }, [value])

  return <div ref={host} style={{ border: '1px solid var(--colorNeutralStroke1)', borderRadius: '4px', overflow: 'hidden' }} />
}
