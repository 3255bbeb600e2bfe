import { render, screen, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { ResponsiveTable, type Column } from './responsive-table'

type Row = { id: string; name: string; score: number }
const ROWS: Row[] = [
  { id: 'a', name: 'Ada', score: 90 },
  { id: 'b', name: 'Bo', score: 75 },
]
const COLUMNS: Column<Row>[] = [
  { header: 'Learner', primary: true, rowHeader: true, cell: (r) => r.name },
  { header: 'Score', cell: (r) => `${r.score}%` },
  {
    header: 'Actions',
    actions: true,
    cell: (r, layout) => <button type="button">{`Open ${r.name} (${layout})`}</button>,
  },
]

describe('ResponsiveTable', () => {
  it('is a captioned table in a named, focusable scroll box', () => {
    render(<ResponsiveTable caption="Learners" columns={COLUMNS} rows={ROWS} rowKey={(r) => r.id} layout="table" />)
    const box = screen.getByRole('region', { name: 'Learners' })
    expect(box).toHaveAttribute('tabindex', '0')
    const table = within(box).getByRole('table', { name: 'Learners' })
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['Learner', 'Score', 'Actions'])
    expect(within(table).getByRole('rowheader', { name: 'Ada' })).toBeInTheDocument()
    expect(within(table).getByRole('button', { name: 'Open Ada (table)' })).toBeInTheDocument()
  })

  it('is a list of cards with labelled values and the actions at the foot on phones', () => {
    render(<ResponsiveTable caption="Learners" columns={COLUMNS} rows={ROWS} rowKey={(r) => r.id} layout="cards" />)
    expect(screen.queryByRole('table')).toBeNull()
    const cards = within(screen.getByRole('list', { name: 'Learners' })).getAllByRole('listitem')
    expect(cards).toHaveLength(2)
    const first = within(cards[0]!)
    expect(first.getByText('Ada')).toBeInTheDocument()
    expect(first.getByText('Score')).toBeInTheDocument()
    expect(first.getByText('90%')).toBeInTheDocument()
    expect(first.queryByText('Actions')).toBeNull()
    expect(first.getByRole('button', { name: 'Open Ada (cards)' })).toBeInTheDocument()
  })
})
