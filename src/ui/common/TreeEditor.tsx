/** A checkbox tree with tri-state groups (Fluent Tree, keyboard navigable). The value is the checked leaves. */
import { Tree, TreeItem, TreeItemLayout, type TreeCheckedChangeData } from '@fluentui/react-components'
import { useMemo, type ReactNode } from 'react'
import { checkedItems, findNode, toggle, type CheckNode } from './tree.ts'

export interface TreeEditorProps {
  nodes: readonly CheckNode[]
  checked: ReadonlySet<string>
  onChange: (next: Set<string>, changed: { node: CheckNode; on: boolean }) => void
  disabled?: boolean
  label: string
  /** ids of branches open at first render (default: top level) */
  defaultOpen?: readonly string[]
  renderLabel?: (node: CheckNode) => ReactNode
}

export function TreeEditor({ nodes, checked, onChange, disabled, label, defaultOpen, renderLabel }: TreeEditorProps) {
  const items = useMemo(() => checkedItems(nodes, checked), [nodes, checked])
  const onCheckedChange = (_e: unknown, data: TreeCheckedChangeData) => {
    if (disabled) return
    const node = findNode(nodes, String(data.value))
    if (!node) return
    const on = data.checked === true || data.checked === 'mixed'
    onChange(toggle(node, checked, on), { node, on })
  }
  const open = defaultOpen ?? nodes.map((n) => n.id)
  const render = (node: CheckNode): ReactNode => {
    const branch = node.children && node.children.length > 0
    return (
      <TreeItem key={node.id} value={node.id} itemType={branch ? 'branch' : 'leaf'} aria-disabled={disabled || node.disabled ? true : undefined}>
        <TreeItemLayout>{renderLabel ? renderLabel(node) : node.label}</TreeItemLayout>
        {branch && <Tree>{node.children!.map(render)}</Tree>}
      </TreeItem>
    )
  }
  return (
    <Tree
      aria-label={label}
      selectionMode="multiselect"
      checkedItems={items}
      onCheckedChange={onCheckedChange}
      defaultOpenItems={open}
    >
      {nodes.map(render)}
    </Tree>
  )
}
