/** Modules the build makes (scripts/vite-plugins.ts). */

/** The light theme's brand table (lightThemeAtBuild): each token made from a brand stop, and its stop. */
declare module 'virtual:bastion/light-brand' {
  import type { BrandVariants, Theme } from '@fluentui/react-components'
  export const brandStops: Partial<Record<keyof Theme, keyof BrandVariants>>
}
