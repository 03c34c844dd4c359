import { useEffect, useState } from 'react'
import { fetchOpenSettings, type LoginBranding, type LoginMethod } from '../api/auth.ts'

export interface BrandingState {
  branding: LoginBranding
  /** single sign-on buttons */
  methods: LoginMethod[]
  /** the open settings answered (or failed): an empty title is now final */
  settled: boolean
}

const EMPTY: LoginBranding = { title: '', logo: '', favicon: '', loginImage: '' }

function setFavicon(href: string): void {
  if (!href) return
  let link = document.querySelector<HTMLLinkElement>('link[rel~="icon"]')
  if (!link) {
    link = document.createElement('link')
    link.rel = 'icon'
    document.head.appendChild(link)
  }
  link.href = href
}

/** The interface settings shown before login (title, logo, favicon); failures leave the defaults. */
export function useBranding(): BrandingState {
  const [state, setState] = useState<BrandingState>({ branding: EMPTY, methods: [], settled: false })
  useEffect(() => {
    let live = true
    fetchOpenSettings().then(
      ({ branding, methods }) => {
        if (!live) return
        setFavicon(branding.favicon)
        setState({ branding, methods: methods ?? [], settled: true })
      },
      () => live && setState((s) => ({ ...s, settled: true })),
    )
    return () => {
      live = false
    }
  }, [])
  return state
}
