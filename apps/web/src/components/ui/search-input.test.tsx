import { act, fireEvent, render, screen } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { SEARCH_DEBOUNCE_MS } from '@/hooks/use-debounced-value'
import { DebouncedSearchInput, SearchInput } from './search-input'

beforeEach(() => {
  vi.useFakeTimers()
})
afterEach(() => {
  vi.useRealTimers()
})

describe('SearchInput (one search box)', () => {
  it('is a labelled search box of at most 200 characters', () => {
    const onChange = vi.fn()
    render(<SearchInput label="Search companies" labelHidden value="" onChange={onChange} placeholder="Name" />)
    const box = screen.getByRole('searchbox', { name: 'Search companies' })
    expect(box).toHaveAttribute('maxlength', '200')
    fireEvent.change(box, { target: { value: 'acme' } })
    expect(onChange).toHaveBeenCalledWith('acme')
  })
})

describe('DebouncedSearchInput', () => {
  it('reports the trimmed text once, when typing pauses', () => {
    const onSearch = vi.fn()
    render(<DebouncedSearchInput label="Search" value="" onSearch={onSearch} />)
    const box = screen.getByRole('searchbox', { name: 'Search' })
    fireEvent.change(box, { target: { value: 'saf' } })
    act(() => vi.advanceTimersByTime(SEARCH_DEBOUNCE_MS - 50))
    fireEvent.change(box, { target: { value: 'safety ' } })
    act(() => vi.advanceTimersByTime(SEARCH_DEBOUNCE_MS - 50))
    expect(onSearch).not.toHaveBeenCalled()
    act(() => vi.advanceTimersByTime(50))
    expect(onSearch).toHaveBeenCalledTimes(1)
    expect(onSearch).toHaveBeenCalledWith('safety')
    // What is typed stays as typed (the trailing space), not replaced by the trimmed value.
    expect(box).toHaveValue('safety ')
  })

  it('shows a value changed from outside (back and forward) without reporting it back', () => {
    const onSearch = vi.fn()
    const { rerender } = render(<DebouncedSearchInput label="Search" value="first" onSearch={onSearch} />)
    rerender(<DebouncedSearchInput label="Search" value="second" onSearch={onSearch} />)
    expect(screen.getByRole('searchbox', { name: 'Search' })).toHaveValue('second')
    act(() => vi.advanceTimersByTime(SEARCH_DEBOUNCE_MS * 2))
    expect(onSearch).not.toHaveBeenCalled()
  })
})
