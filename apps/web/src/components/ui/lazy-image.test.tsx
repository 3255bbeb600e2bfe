import { act, render, screen } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { LazyImage } from './lazy-image'

type Callback = (entries: Array<{ isIntersecting: boolean }>) => void

function fakeObserver() {
  const observers: Array<{ callback: Callback; options: IntersectionObserverInit }> = []
  class FakeIntersectionObserver {
    constructor(callback: Callback, options: IntersectionObserverInit) {
      observers.push({ callback, options })
    }
    observe() {}
    disconnect() {}
  }
  vi.stubGlobal('IntersectionObserver', FakeIntersectionObserver)
  return observers
}

afterEach(() => {
  vi.unstubAllGlobals()
})

describe('LazyImage', () => {
  it('loads the image only once it nears the viewport (threshold 0.1, 50 px margin)', () => {
    const observers = fakeObserver()
    render(<LazyImage src="https://img.example/a.png" alt="A course" fallback={<span>fallback</span>} />)
    expect(screen.getByText('fallback')).toBeInTheDocument()
    expect(screen.queryByRole('img')).not.toBeInTheDocument()
    expect(observers[0]?.options).toEqual({ threshold: 0.1, rootMargin: '50px' })
    act(() => observers[0]!.callback([{ isIntersecting: true }]))
    expect(screen.getByRole('img', { name: 'A course' })).toHaveAttribute('src', 'https://img.example/a.png')
  })

  it('keeps the fallback without a source and after a load error', () => {
    fakeObserver()
    const { rerender } = render(<LazyImage src={null} alt="" fallback={<span>fallback</span>} />)
    expect(screen.getByText('fallback')).toBeInTheDocument()
    vi.unstubAllGlobals()
    vi.stubGlobal('IntersectionObserver', undefined)
    rerender(<LazyImage key="b" src="https://img.example/broken.png" alt="B" fallback={<span>fallback</span>} />)
    act(() => {
      screen.getByRole('img', { name: 'B' }).dispatchEvent(new Event('error'))
    })
    expect(screen.getByText('fallback')).toBeInTheDocument()
  })
})
