/**
 * The Okabe–Ito palette (readable with every common colour-vision deficiency), each
 * colour with its own fill pattern, so that no chart tells series apart by colour alone (bars
 * also carry their values as labels, and the axis names every category).
 */
export const OKABE_ITO = {
  blue: '#0072B2',
  vermillion: '#D55E00',
  bluishGreen: '#009E73',
  orange: '#E69F00',
  skyBlue: '#56B4E9',
  reddishPurple: '#CC79A7',
  yellow: '#F0E442',
  black: '#000000',
} as const

export type ChartPattern = 'solid' | 'stripes' | 'dots' | 'crosshatch'

export interface ChartSeries {
  /** The data key of the series. */
  key: string
  label: string
  colour: string
  pattern?: ChartPattern
}

/** One bar per row; `colour`/`pattern` per row (category charts) or per series. */
export interface ChartDatum {
  label: string
  [key: string]: string | number
}

/** The height of every chart (chart-view.tsx); its panel keeps it free while the chart loads. */
export const CHART_HEIGHT = 260
