/**
 * The one way commands become controls: a list's header (buttons and right-hand tools), its bulk menu, each
 * row's actions and a detail page's actions all render the registry's commands here. The caller picks which
 * commands (`commandsFor`), how many show before a More menu, and the look; the bar asks the registry whether
 * each is enabled and runs it with the helpers current at click time.
 */
import { Button, MenuButton, makeStyles, tokens, type ButtonProps } from '@fluentui/react-components'
import { Menu, MenuItem, MenuList, MenuPopover, MenuTrigger } from '../common/overlays.tsx'
import { MoreHorizontalRegular } from '@fluentui/react-icons'
import { useLingui } from '@lingui/react'
import { useLingui as useLinguiMacro } from '@lingui/react/macro'
import type { ReactNode } from 'react'
import { isEnabled, splitActions, type CommandEnv, type CommandTarget } from './commands.ts'
import type { CommandHelpers, ListCommand } from './types.ts'

const useStyles = makeStyles({
  bar: { display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: tokens.spacingHorizontalS },
  compact: { display: 'flex', alignItems: 'center', gap: tokens.spacingHorizontalXXS },
})

export interface CommandBarProps {
  /** visible commands, in order (`commandsFor`) */
  commands: readonly ListCommand[]
  env: CommandEnv
  target: CommandTarget
  /** read when a command runs, so a memoised bar still runs with the current helpers */
  helpers: () => CommandHelpers
  /** buttons shown before a More menu takes the rest (default: all) */
  max?: number
  /** buttons kept when the More menu is needed (default: `max`) */
  shownWhenMore?: number
  /** `row`: small subtle buttons named after the row; `icons`: icon-only tools; `buttons`: a page's buttons */
  look?: 'buttons' | 'row' | 'icons'
  /** the object the buttons act on, added to their accessible names (rows: "Edit alice") */
  objectName?: string
  /** the primary button: a command's own `primary` flag, or this id */
  primaryId?: string
}

export function CommandBar({ commands, env, target, helpers, max = Infinity, shownWhenMore, look = 'buttons', objectName, primaryId }: CommandBarProps) {
  const { i18n } = useLingui()
  const { t } = useLinguiMacro()
  const styles = useStyles()
  if (commands.length === 0) return null
  const { shown, more } = splitActions(commands, max, shownWhenMore ?? max)
  const run = (cmd: ListCommand) => void cmd.run?.(target, helpers())
  const rowName = objectName
  const name = (cmd: ListCommand) => (objectName ? `${i18n._(cmd.label)} ${objectName}` : i18n._(cmd.label))
  const appearance = (cmd: ListCommand): ButtonProps['appearance'] =>
    look === 'buttons' ? (cmd.primary || cmd.id === primaryId ? 'primary' : 'secondary') : 'subtle'
  const button = (cmd: ListCommand): ReactNode => {
    if (cmd.render) return <span key={cmd.id}>{cmd.render(target, helpers())}</span>
    const Icon = cmd.icon
    const iconOnly = look === 'icons'
    return (
      <Button
        key={cmd.id}
        data-command={cmd.id}
        size={look === 'row' ? 'small' : undefined}
        appearance={appearance(cmd)}
        icon={Icon && look !== 'row' ? <Icon /> : undefined}
        disabled={!isEnabled(cmd, env, target)}
        aria-label={iconOnly || objectName ? name(cmd) : undefined}
        title={iconOnly ? name(cmd) : undefined}
        onClick={() => run(cmd)}
      >
        {iconOnly ? undefined : i18n._(cmd.label)}
      </Button>
    )
  }
  return (
    <div className={look === 'buttons' ? styles.bar : styles.compact}>
      {shown.map(button)}
      {more.length > 0 && (
        <Menu>
          <MenuTrigger disableButtonEnhancement>
            {look === 'row'
              ? <Button size="small" appearance="subtle" icon={<MoreHorizontalRegular />} aria-label={rowName ? t`More actions for ${rowName}` : t`More`} data-command="more" />
              : <Button icon={<MoreHorizontalRegular />} data-command="more">{t`More`}</Button>}
          </MenuTrigger>
          <CommandMenuList commands={more} env={env} target={target} run={run} />
        </Menu>
      )}
    </div>
  )
}

function CommandMenuList({ commands, env, target, run }: { commands: readonly ListCommand[]; env: CommandEnv; target: CommandTarget; run: (cmd: ListCommand) => void }) {
  const { i18n } = useLingui()
  return (
    <MenuPopover>
      <MenuList>
        {commands.map((cmd) => {
          const Icon = cmd.icon
          return (
            <MenuItem key={cmd.id} data-command={cmd.id} icon={Icon ? <Icon /> : undefined} disabled={!isEnabled(cmd, env, target)} onClick={() => run(cmd)}>
              {i18n._(cmd.label)}
            </MenuItem>
          )
        })}
      </MenuList>
    </MenuPopover>
  )
}

/** The bulk actions of a list: one menu button whose label counts the selection. */
export function CommandMenu({ label, commands, env, target, helpers, id }: { label: string; commands: readonly ListCommand[]; env: CommandEnv; target: CommandTarget; helpers: () => CommandHelpers; id: string }) {
  if (commands.length === 0) return null
  return (
    <Menu>
      <MenuTrigger disableButtonEnhancement>
        <MenuButton data-command={id} appearance="secondary">{label}</MenuButton>
      </MenuTrigger>
      <CommandMenuList commands={commands} env={env} target={target} run={(cmd) => void cmd.run?.(target, helpers())} />
    </Menu>
  )
}
