import { makeStyles, tokens, typographyStyles } from '@fluentui/react-components'

export const useLoginStyles = makeStyles({
  page: {
    minHeight: '100vh',
    display: 'flex',
    flexDirection: 'column',
    backgroundColor: tokens.colorNeutralBackground2,
    color: tokens.colorNeutralForeground1,
  },
  header: {
    display: 'flex',
    justifyContent: 'flex-end',
    padding: `${tokens.spacingVerticalS} ${tokens.spacingHorizontalM}`,
  },
  main: {
    flexGrow: 1,
    display: 'flex',
    alignItems: 'center',
    justifyContent: 'center',
    padding: `${tokens.spacingVerticalL} ${tokens.spacingHorizontalL} 10vh`,
    '@media (max-width: 480px)': { padding: `${tokens.spacingVerticalS} ${tokens.spacingHorizontalS} ${tokens.spacingVerticalXXL}` },
  },
  language: { display: 'flex', alignItems: 'center', columnGap: tokens.spacingHorizontalXS },
  languageIcon: { fontSize: '20px', color: tokens.colorNeutralForeground2 },
  // A Fluent-card-looking surface: Fluent's Card would pull in tabster (about 17 kB gzip) for focus handling
  // this static panel does not need.
  card: {
    display: 'flex',
    flexDirection: 'column',
    backgroundColor: tokens.colorNeutralBackground1,
    borderRadius: tokens.borderRadiusXLarge,
    boxShadow: tokens.shadow16,
    width: '100%',
    maxWidth: '400px',
    boxSizing: 'border-box',
    padding: tokens.spacingHorizontalXXXL,
    rowGap: tokens.spacingVerticalL,
    '@media (max-width: 480px)': { padding: tokens.spacingHorizontalXL },
  },
  brand: {
    display: 'flex',
    flexDirection: 'column',
    alignItems: 'center',
    rowGap: tokens.spacingVerticalS,
    textAlign: 'center',
  },
  logo: { maxHeight: '48px', maxWidth: '100%', objectFit: 'contain' },
  title: { ...typographyStyles.title3, margin: 0, minHeight: '28px', overflowWrap: 'anywhere' },
  stepTitle: { ...typographyStyles.subtitle2, margin: 0 },
  hint: { ...typographyStyles.body1, margin: 0, color: tokens.colorNeutralForeground2 },
  form: { display: 'flex', flexDirection: 'column', rowGap: tokens.spacingVerticalL },
  actions: { display: 'flex', flexDirection: 'column', rowGap: tokens.spacingVerticalS, marginTop: tokens.spacingVerticalS },
})
