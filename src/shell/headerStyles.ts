import { makeStyles, tokens } from '@fluentui/react-components'

/** Buttons on the brand-coloured header bar: white text and icons, darker brand on hover. */
export const useHeaderStyles = makeStyles({
  button: {
    color: tokens.colorNeutralForegroundOnBrand,
    minWidth: 'auto',
    ':hover': { color: tokens.colorNeutralForegroundOnBrand, backgroundColor: tokens.colorBrandBackgroundHover },
    ':hover:active': { color: tokens.colorNeutralForegroundOnBrand, backgroundColor: tokens.colorBrandBackgroundPressed },
    ':focus-visible': { outlineColor: tokens.colorNeutralForegroundOnBrand },
  },
  iconButton: { position: 'relative' },
  badge: { position: 'absolute', top: '0', right: '0', transform: 'translate(35%, -15%)', pointerEvents: 'none' },
})
