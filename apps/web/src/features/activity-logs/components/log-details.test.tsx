import { render, screen } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { LogDetails, humanizeKey, valueText } from './log-details'

describe('LogDetails', () => {
  it('reads an object as labelled values and keeps its JSON one click away', () => {
    const { container } = render(<LogDetails details={{ courseTitle: 'Budgeting', fields: ['title', 'level'] }} />)
    expect(screen.getByText('Course title:')).toBeInTheDocument()
    expect(screen.getByText('Budgeting')).toBeInTheDocument()
    expect(screen.getByText('title, level')).toBeInTheDocument()
    expect(container.querySelector('details pre')).toHaveTextContent(
      '{"courseTitle":"Budgeting","fields":["title","level"]}',
    )
  })

  it('shows a lone message, a string, and product-rules texts for absent or odd details', () => {
    const { rerender } = render(<LogDetails details={{ message: 'User signed in' }} />)
    expect(screen.getByText('User signed in')).toBeInTheDocument()
    expect(document.querySelector('details')).toBeNull()
    rerender(<LogDetails details="Clicked help" />)
    expect(screen.getByText('Clicked help')).toBeInTheDocument()
    rerender(<LogDetails details={null} />)
    expect(screen.getByText('N/A')).toBeInTheDocument()
    rerender(<LogDetails details={42} />)
    expect(screen.getByText('Invalid details format')).toBeInTheDocument()
  })

  it('renders markup in values as text', () => {
    const { container } = render(<LogDetails details={{ note: '<img src=x onerror=alert(1)>' }} />)
    expect(container.querySelector('img')).toBeNull()
    expect(screen.getByText('<img src=x onerror=alert(1)>')).toBeInTheDocument()
  })

  it('humanizes keys and values', () => {
    expect(humanizeKey('previousStatus')).toBe('Previous status')
    expect(humanizeKey('user_id')).toBe('User id')
    expect(valueText({ before: true, after: false })).toBe('Before: Yes; After: No')
  })
})
