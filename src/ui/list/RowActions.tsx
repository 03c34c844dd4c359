/** The actions cell: at most two buttons, else the first plus a More menu (spec §9). */
import { Button, Menu, MenuItem, MenuList, MenuPopover, MenuTrigger, makeStyles, tokens } from '@fluentui/react-components'
import { MoreHorizontalRegular } from '@fluentui/react-icons'
import { useLingui } from '@lingui/react'
import { useLingui as useLinguiMacro } from '@lingui/react/macro'
import { createContext, useContext } from 'react'
import type { Row } from '../../api/resources.ts'
import { splitRowActions, type Command, type CommandEnv } from './commands.ts'
import { isEnabled } from './commands.ts'
import type { ListHelpers } from './types.ts'

const useStyles = makeStyles({ root: { display: 'flex', gap: tokens.spacingHorizontalXXS, alignItems: 'center' } })

/** The list's helpers, for the actions cells (the columns do not change when the helpers do). */
export const ListHelpersContext = createContext<ListHelpers | null>(null)

export function RowActions({ row, commands, env, rowName, ...props }: { row: Row; commands: Command<ListHelpers>[]; env: CommandEnv; helpers?: ListHelpers; rowName: string }) {
  const fromList = useContext(ListHelpersContext)
  const helpers = props.helpers ?? fromList
  const { i18n } = useLingui()
  const { t } = useLinguiMacro()
  const styles = useStyles()
  const target = { row, selection: [] }
  const { shown, more } = splitRowActions(commands)
  const run = (cmd: Command<ListHelpers>) => helpers && void cmd.run?.(target, helpers)
  return (
    <div className={styles.root}>
      {shown.map((cmd) => (
        <Button
          key={cmd.id}
          size="small"
          appearance="subtle"
          data-command={cmd.id}
          disabled={!isEnabled(cmd, env, target)}
          aria-label={`${i18n._(cmd.label)} ${rowName}`}
          onClick={() => run(cmd)}
        >
          {i18n._(cmd.label)}
        </Button>
      ))}
      {more.length > 0 && (
        <Menu>
          <MenuTrigger disableButtonEnhancement>
            <Button size="small" appearance="subtle" icon={<MoreHorizontalRegular />} aria-label={t`More actions for ${rowName}`} data-command="more" />
          </MenuTrigger>
          <MenuPopover>
            <MenuList>
              {more.map((cmd) => {
                const Icon = cmd.icon
                return (
                  <MenuItem key={cmd.id} data-command={cmd.id} icon={Icon ? <Icon /> : undefined} disabled={!isEnabled(cmd, env, target)} onClick={() => run(cmd)}>
                    {i18n._(cmd.label)}
                  </MenuItem>
                )
              })}
            </MenuList>
          </MenuPopover>
        </Menu>
      )}
    </div>
  )
}
