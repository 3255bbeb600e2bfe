import { useEffect, useRef, useState, type ReactNode } from 'react'
import { cn } from './cn'

/** docs/product-rules.md §9: images load when a tenth of them is within 50 px of the viewport. */
export const LAZY_IMAGE_THRESHOLD = 0.1
export const LAZY_IMAGE_ROOT_MARGIN = '50px'

/**
 * An image fetched only once it nears the viewport (IntersectionObserver), with `fallback`
 * shown before then, when there is no source, and when loading fails.
 */
export function LazyImage({
  src,
  alt,
  fallback,
  className,
}: {
  src: string | null | undefined
  alt: string
  fallback: ReactNode
  className?: string
}) {
  const holder = useRef<HTMLDivElement>(null)
  const [near, setNear] = useState(() => typeof IntersectionObserver === 'undefined')
  const [failed, setFailed] = useState<string | null>(null)

  useEffect(() => {
    if (near || !src || !holder.current) return
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) {
          setNear(true)
          observer.disconnect()
        }
      },
      { threshold: LAZY_IMAGE_THRESHOLD, rootMargin: LAZY_IMAGE_ROOT_MARGIN },
    )
    observer.observe(holder.current)
    return () => observer.disconnect()
  }, [near, src])

  const show = near && src && failed !== src
  return (
    <div ref={holder} className={cn('overflow-hidden', className)}>
      {show ? <img src={src} alt={alt} className="size-full object-cover" onError={() => setFailed(src)} /> : fallback}
    </div>
  )
}
