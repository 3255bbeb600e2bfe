import stock1 from '../assets/course-stock-1.svg'
import stock2 from '../assets/course-stock-2.svg'
import stock3 from '../assets/course-stock-3.svg'
import stock4 from '../assets/course-stock-4.svg'
import stock5 from '../assets/course-stock-5.svg'
import stock6 from '../assets/course-stock-6.svg'
import stock7 from '../assets/course-stock-7.svg'
import stock8 from '../assets/course-stock-8.svg'

/**
 * docs/product-rules.md §2: a course without an image gets a stock image. These are bundled with the app (no
 * outside request, nothing for the CSP to allow) and picked from the id, so a course always
 * shows the same one. The catalogue cards use them too, so the demo is not a wall of
 * grey placeholders.
 */
export const STOCK_IMAGES = [stock1, stock2, stock3, stock4, stock5, stock6, stock7, stock8] as const

export function stockImageFor(courseId: string): string {
  let hash = 0
  for (const char of courseId) hash = (hash * 31 + char.charCodeAt(0)) >>> 0
  return STOCK_IMAGES[hash % STOCK_IMAGES.length]!
}
