/**
 * Fluent's `Menu` and `Tooltip` on first use (issue 17, docs/architecture.md "First visit"): the same props as
 * Fluent's; until the user shows interest they render only their trigger (a menu's button with `aria-haspopup`, a
 * tooltip's child with the tooltip as its `aria-label`), so the first screen carries neither their code nor the
 * positioning code only they need. Pointing at or focusing a trigger loads the chunk; activating a menu's
 * trigger (click, Enter, Space, ArrowDown) opens the real menu once it has arrived, which moves the focus into it
 * as Fluent does; a tooltip becomes Fluent's at the first pointer or focus (keeping the focus on its element).
 * A menu inside a real menu (a submenu) is real at once; a context menu (`openOnContext`) opens on the context menu
 * event only. The menu's parts (`MenuTrigger`, `MenuPopover`, `MenuList`, `MenuItem`…) come from here too: they
 * render Fluent's once the chunk is there (only a real menu renders them; elsewhere they suspend until it arrives),
 * so no part of Fluent's menu code is in the first screen.
 */
import type * as Fluent from '@fluentui/react-components'
import { useMergedRefs } from '@fluentui/react-components'
import {
  Children, cloneElement, createContext, isValidElement, use, useContext, useEffect, useLayoutEffect, useReducer, useRef, useState,
  type ComponentType, type KeyboardEvent, type ReactElement, type ReactNode, type Ref, type SyntheticEvent,
} from 'react'
import type * as OverlaysModule from './overlays.lazy.ts'
import { retryImport } from './retryImport.ts'

type Overlays = typeof OverlaysModule
let loaded: Overlays | undefined
let loading: Promise<Overlays> | undefined

/** Loads the real components (once; again after a failed download); resolves when they can render. */
export function loadOverlays(): Promise<Overlays> {
  loading ??= retryImport(() => import('./overlays.lazy.ts')).then(
    (m) => (loaded = m),
    (e: unknown) => {
      loading = undefined
      throw e
    },
  )
  return loading
}
/** Tests only: forget the loaded chunk, so that the stand-ins render again (module state outlives a test file). */
export function forgetOverlays(): void {
  loaded = undefined
  loading = undefined
}

const preload = () => void loadOverlays().catch(() => {}) // a later interest tries again

type AnyProps = Record<string, unknown>
type Handler = ((e: SyntheticEvent) => void) | undefined

function chain(first: unknown, then: (e: SyntheticEvent) => void): (e: SyntheticEvent) => void {
  return (e) => {
    ;(first as Handler)?.(e)
    then(e)
  }
}

/** Adds props to the element a trigger acts on, through trigger wrappers (a Tooltip inside a MenuTrigger), as Fluent does. */
function withTriggerProps(child: ReactNode, add: (props: AnyProps) => AnyProps): ReactNode {
  if (!isValidElement<AnyProps>(child)) return child
  if ((child.type as { isFluentTriggerComponent?: boolean }).isFluentTriggerComponent) {
    return cloneElement(child, undefined, withTriggerProps(child.props.children as ReactNode, add))
  }
  return cloneElement(child, add(child.props))
}

const InRealMenu = createContext(false)

type OpenData = Parameters<NonNullable<Fluent.MenuProps['onOpenChange']>>[1]

export function Menu(props: Fluent.MenuProps) {
  const nested = useContext(InRealMenu)
  const controlledByCaller = props.open !== undefined
  const [wanted, setWanted] = useState(false)
  const [, arrived] = useReducer((n: number) => n + 1, 0)
  // Our own open state of an uncontrolled menu once it is real (the stand-in's activation opens it).
  const [opened, setOpened] = useState(false)
  // The real menu mounts closed and opens on the next render, as after a click on its trigger: Fluent then moves
  // the focus into it (mounted open, it would not).
  const [settled, setSettled] = useState(false)
  const open = wanted || props.open === true
  const real = loaded !== undefined && (open || nested)
  useEffect(() => {
    if (open && !loaded) loadOverlays().then(arrived, () => setWanted(false))
  }, [open])
  useEffect(() => {
    if (real && !settled) setSettled(true)
  }, [real, settled])
  if (real && loaded) {
    if (nested) {
      return <loaded.Menu {...props} />
    }
    const state = controlledByCaller
      ? { open: settled && props.open === true }
      : {
          open: settled && opened,
          onOpenChange: (e: Fluent.MenuOpenEvent, d: OpenData) => {
            setOpened(d.open)
            props.onOpenChange?.(e, d)
          },
        }
    return (
      <InRealMenu.Provider value>
        <loaded.Menu {...props} {...state} />
      </InRealMenu.Provider>
    )
  }
  const activate = (e: SyntheticEvent, type: 'menuTriggerClick' | 'menuTriggerKeyDown' | 'menuTriggerContextMenu') => {
    setWanted(true)
    if (!controlledByCaller) setOpened(true)
    // As Fluent tells a change: a controlled menu opens when its caller's state says so.
    props.onOpenChange?.(e as never, { open: true, type, event: e } as OpenData)
  }
  const [trigger] = Children.toArray(props.children)
  if (!isValidElement<{ children?: ReactNode }>(trigger)) return null
  if (props.openOnContext) {
    // A context menu (a tree item's): the right button or the context-menu key, never a click.
    return withTriggerProps(trigger.props.children, (p) => ({
      onContextMenu: chain(p.onContextMenu, (e) => { e.preventDefault(); activate(e, 'menuTriggerContextMenu') }),
      onPointerEnter: chain(p.onPointerEnter, preload),
    }))
  }
  return withTriggerProps(trigger.props.children, (p) => ({
    'aria-haspopup': 'menu',
    'aria-expanded': false,
    onClick: chain(p.onClick, (e) => { if (!e.defaultPrevented) activate(e, 'menuTriggerClick') }),
    onKeyDown: chain(p.onKeyDown, (e) => {
      if ((e as KeyboardEvent).key === 'ArrowDown' && !e.defaultPrevented) { e.preventDefault(); activate(e, 'menuTriggerKeyDown') }
    }),
    onPointerEnter: chain(p.onPointerEnter, preload),
    onFocus: chain(p.onFocus, preload),
  }))
}

export function Tooltip(props: Fluent.TooltipProps) {
  const [real, setReal] = useState(() => loaded !== undefined)
  const node = useRef<HTMLElement | null>(null)
  const refocus = useRef(false)
  // Fluent's Tooltip wraps the element, so the upgrade re-mounts it: never while it is pressed, or the click of a
  // press that began on the old element would end on the new one and be lost (the first click on the bell was).
  const [pressed, setPressed] = useState(false)
  const child = props.children as ReactElement<AnyProps & { ref?: Ref<HTMLElement> }>
  const ref = useMergedRefs(node, isValidElement(child) ? child.props.ref : undefined)
  const showReal = real && loaded !== undefined && !pressed
  useLayoutEffect(() => {
    if (showReal && refocus.current) {
      refocus.current = false
      if (document.activeElement === document.body || document.activeElement === null) node.current?.focus()
    }
  }, [showReal])
  if (!isValidElement(child)) return child
  if (showReal && loaded) return <loaded.Tooltip {...props}>{cloneElement(child, { ref })}</loaded.Tooltip>
  function upgrade(focused: boolean) {
    loadOverlays().then(() => {
      refocus.current ||= focused && document.activeElement === node.current
      setReal(true)
    }, () => {})
  }
  function press() {
    setPressed(true)
    const release = () => {
      window.removeEventListener('pointerup', release, true)
      window.removeEventListener('pointercancel', release, true)
      // after this press's click (dispatched in the same task as the release)
      setTimeout(() => {
        refocus.current ||= document.activeElement === node.current
        setPressed(false)
      })
    }
    window.addEventListener('pointerup', release, true)
    window.addEventListener('pointercancel', release, true)
  }
  const label = props.relationship === 'label' && typeof props.content === 'string' ? { 'aria-label': child.props['aria-label'] ?? props.content } : {}
  return cloneElement(child, {
    ...label,
    ref,
    onPointerEnter: chain(child.props.onPointerEnter, () => upgrade(false)),
    onPointerDown: chain(child.props.onPointerDown, press),
    onFocus: chain(child.props.onFocus, () => upgrade(true)),
  })
}
Tooltip.isFluentTriggerComponent = true

type PartName = 'MenuTrigger' | 'MenuPopover' | 'MenuList' | 'MenuItem' | 'MenuItemRadio' | 'MenuItemLink' | 'MenuGroup' | 'MenuGroupHeader' | 'MenuDivider'

/** One of Fluent's menu parts, rendered from the loaded chunk (suspending until it is there). */
function part<K extends PartName>(name: K): Overlays[K] {
  function Part(props: AnyProps) {
    const Real = (loaded ?? use(loadOverlays()))[name] as unknown as ComponentType<AnyProps>
    return <Real {...props} />
  }
  Part.displayName = name
  return Part as unknown as Overlays[K]
}

export const MenuTrigger = Object.assign(part('MenuTrigger'), { isFluentTriggerComponent: true })
export const MenuPopover = part('MenuPopover')
export const MenuList = part('MenuList')
export const MenuItem = part('MenuItem')
export const MenuItemRadio = part('MenuItemRadio')
export const MenuItemLink = part('MenuItemLink')
export const MenuGroup = part('MenuGroup')
export const MenuGroupHeader = part('MenuGroupHeader')
export const MenuDivider = part('MenuDivider')
