import { Button } from '@fluentui/react-components'
import { act, fireEvent, screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { useState } from 'react'
import { beforeAll, describe, expect, it, vi } from 'vitest'
import { forgetOverlays, loadOverlays, Menu, MenuItem, MenuList, MenuPopover, MenuTrigger, Tooltip } from './overlays.tsx'
import { renderInApp } from './testing-render.tsx'
import { activateEnglish } from './testing.ts'

describe('Menu and Tooltip on first use', () => {
  beforeAll(() => activateEnglish())

  it('a menu is its trigger until activated, then opens; an item acts and closes it; it opens again', async () => {
    const user = userEvent.setup()
    const picked = vi.fn()
    renderInApp(
      <Menu>
        <MenuTrigger disableButtonEnhancement>
          <Tooltip content="Help" relationship="label">
            <Button>?</Button>
          </Tooltip>
        </MenuTrigger>
        <MenuPopover>
          <MenuList>
            <MenuItem onClick={picked}>First</MenuItem>
            <MenuItem>Second</MenuItem>
          </MenuList>
        </MenuPopover>
      </Menu>,
    )
    const trigger = screen.getByRole('button', { name: 'Help' })
    expect(trigger.getAttribute('aria-haspopup')).toBe('menu')
    expect(screen.queryByRole('menu')).toBeNull()
    await user.click(trigger)
    // (Fluent moves the focus into an opened menu only in a browser: jsdom has no layout for tabster's finders.)
    await user.click(await screen.findByRole('menuitem', { name: 'First' }))
    expect(picked).toHaveBeenCalledTimes(1)
    await waitFor(() => expect(screen.queryByRole('menu')).toBeNull())
    // The real trigger opens it again.
    await user.click(screen.getByRole('button', { name: 'Help' }))
    await user.click(await screen.findByRole('menuitem', { name: 'First' }))
    expect(picked).toHaveBeenCalledTimes(2)
  })

  it('ArrowDown on the stand-in opens the menu', async () => {
    const user = userEvent.setup()
    renderInApp(
      <Menu>
        <MenuTrigger disableButtonEnhancement>
          <Button>Actions</Button>
        </MenuTrigger>
        <MenuPopover>
          <MenuList>
            <MenuItem>Only</MenuItem>
          </MenuList>
        </MenuPopover>
      </Menu>,
    )
    await user.tab()
    await user.keyboard('{ArrowDown}')
    expect(await screen.findByRole('menuitem', { name: 'Only' })).toBeTruthy()
  })

  it('a controlled menu asks its caller to open, opens when told, and tells the close', async () => {
    const user = userEvent.setup()
    const changes: boolean[] = []
    function Controlled() {
      const [open, setOpen] = useState(false)
      return (
        <Menu open={open} onOpenChange={(_, d) => { changes.push(d.open); setOpen(d.open) }}>
          <MenuTrigger disableButtonEnhancement>
            <Button>Controlled</Button>
          </MenuTrigger>
          <MenuPopover>
            <MenuList>
              <MenuItem>Inside</MenuItem>
            </MenuList>
          </MenuPopover>
        </Menu>
      )
    }
    renderInApp(<Controlled />)
    await user.click(screen.getByRole('button', { name: 'Controlled' }))
    await user.click(await screen.findByRole('menuitem', { name: 'Inside' }))
    await waitFor(() => expect(screen.queryByRole('menu')).toBeNull())
    expect(changes).toEqual([true, false])
  })

  it('a nested menu opens from its item', async () => {
    const user = userEvent.setup()
    const picked = vi.fn()
    renderInApp(
      <Menu>
        <MenuTrigger disableButtonEnhancement>
          <Button>Outer</Button>
        </MenuTrigger>
        <MenuPopover>
          <MenuList>
            <Menu>
              <MenuTrigger disableButtonEnhancement>
                <MenuItem>More</MenuItem>
              </MenuTrigger>
              <MenuPopover>
                <MenuList>
                  <MenuItem onClick={picked}>Deep</MenuItem>
                </MenuList>
              </MenuPopover>
            </Menu>
          </MenuList>
        </MenuPopover>
      </Menu>,
    )
    await user.click(screen.getByRole('button', { name: 'Outer' }))
    await user.click(await screen.findByRole('menuitem', { name: 'More' }))
    await user.click(await screen.findByRole('menuitem', { name: 'Deep' }))
    expect(picked).toHaveBeenCalledTimes(1)
  })

  it('a click pressed while the tooltip becomes Fluent\'s is not lost (the upgrade waits for the release)', async () => {
    forgetOverlays() // the stand-in, as on a first visit
    const clicked = vi.fn()
    renderInApp(
      <Tooltip content="Bell" relationship="label">
        <Button onClick={clicked}>bell</Button>
      </Tooltip>,
    )
    const before = screen.getByRole('button', { name: 'Bell' })
    fireEvent.pointerEnter(before) // starts loading Fluent's Tooltip
    fireEvent.pointerDown(before)
    await loadOverlays() // the chunk arrives during the press
    await act(async () => {})
    expect(screen.getByRole('button', { name: 'Bell' })).toBe(before) // not re-mounted under the press
    fireEvent.pointerUp(before)
    fireEvent.click(before)
    expect(clicked).toHaveBeenCalledTimes(1)
    await waitFor(() => expect(screen.getByRole('button', { name: 'Bell' })).not.toBe(before)) // Fluent's, after the click
  })

  it('a tooltip labels its element at once and keeps the focus when it becomes Fluent\'s', async () => {
    const user = userEvent.setup()
    renderInApp(
      <Tooltip content="Settings" relationship="label">
        <Button icon={<span>⚙</span>} />
      </Tooltip>,
    )
    expect(screen.getByRole('button', { name: 'Settings' })).toBeTruthy()
    await user.tab()
    await waitFor(() => expect(screen.getByRole('tooltip', { hidden: true }).textContent).toBe('Settings'))
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Settings' }))
  })
})
