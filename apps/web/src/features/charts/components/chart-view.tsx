import {
  Bar,
  BarChart,
  CartesianGrid,
  Cell,
  LabelList,
  Legend,
  Line,
  LineChart,
  ReferenceLine,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts'
import { useId } from 'react'
import { CHART_HEIGHT, type ChartPattern } from './chart-palette'
import type { ChartSpec } from './chart-panel'

/** The fill of a pattern: an SVG pattern over the colour (solid: the colour itself). */
function PatternDefs({ prefix, fills }: { prefix: string; fills: { colour: string; pattern: ChartPattern }[] }) {
  return (
    <defs>
      {fills.map(({ colour, pattern }, i) => (
        <pattern key={i} id={`${prefix}-${i}`} width="8" height="8" patternUnits="userSpaceOnUse">
          <rect width="8" height="8" fill={colour} />
          {pattern === 'stripes' && <path d="M-2,2 l4,-4 M0,8 l8,-8 M6,10 l4,-4" stroke="#fff" strokeWidth="2" />}
          {pattern === 'dots' && <circle cx="4" cy="4" r="1.6" fill="#fff" />}
          {pattern === 'crosshatch' && <path d="M0,0 l8,8 M8,0 l-8,8" stroke="#fff" strokeWidth="1.5" />}
        </pattern>
      ))}
    </defs>
  )
}

const AXIS = { fontSize: 12, fill: '#334155' }

/** The charts themselves (recharts), in the lazily loaded chunk. */
export default function ChartView({ kind, data, series, perCategory, reference }: ChartSpec) {
  const prefix = useId().replace(/:/g, '')
  if (kind === 'line') {
    return (
      <ResponsiveContainer width="100%" height={CHART_HEIGHT}>
        <LineChart data={data} margin={{ top: 16, right: 24, bottom: 8, left: 8 }}>
          <CartesianGrid stroke="#e2e8f0" />
          <XAxis dataKey="label" tick={AXIS} />
          <YAxis allowDecimals={false} tick={AXIS} width={56} />
          <Tooltip />
          <Legend />
          {series.map((s, i) => (
            <Line
              key={s.key}
              dataKey={s.key}
              name={s.label}
              stroke={s.colour}
              strokeWidth={2}
              strokeDasharray={i === 0 ? undefined : '6 4'}
              dot={{ r: 3 }}
              isAnimationActive={false}
            />
          ))}
          {reference && (
            <ReferenceLine
              y={reference.value}
              stroke="#000"
              strokeDasharray="2 4"
              label={{ value: reference.label, position: 'insideTopRight', fill: '#000', fontSize: 12 }}
            />
          )}
        </LineChart>
      </ResponsiveContainer>
    )
  }
  const fills = perCategory
    ? data.map((d) => ({ colour: String(d.colour), pattern: (d.pattern as ChartPattern) ?? 'solid' }))
    : series.map((s) => ({ colour: s.colour, pattern: s.pattern ?? 'solid' }))
  return (
    <ResponsiveContainer width="100%" height={CHART_HEIGHT}>
      <BarChart data={data} margin={{ top: 20, right: 16, bottom: 8, left: 8 }}>
        <PatternDefs prefix={prefix} fills={fills} />
        <CartesianGrid stroke="#e2e8f0" vertical={false} />
        <XAxis dataKey="label" tick={AXIS} interval="preserveStartEnd" />
        <YAxis allowDecimals={false} tick={AXIS} width={56} />
        <Tooltip cursor={{ fill: '#f1f5f9' }} />
        {series.length > 1 && <Legend />}
        {series.map((s, i) => (
          <Bar
            key={s.key}
            dataKey={s.key}
            name={s.label}
            fill={`url(#${prefix}-${i})`}
            stroke={s.colour}
            isAnimationActive={false}
          >
            {perCategory &&
              data.map((_, j) => <Cell key={j} fill={`url(#${prefix}-${j})`} stroke={fills[j]!.colour} />)}
            {data.length <= 13 && <LabelList dataKey={s.key} position="top" fill="#0f172a" fontSize={12} />}
          </Bar>
        ))}
      </BarChart>
    </ResponsiveContainer>
  )
}
