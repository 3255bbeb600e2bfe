import { showingRange, type Course } from '@portal/shared'

/** docs/product-rules.md §9: catalogue page sizes, 12 by default; default sort title ascending. */
export const COURSE_PAGE_SIZES = [12, 24, 50, 100, 200] as const
export type CoursePageSize = (typeof COURSE_PAGE_SIZES)[number]
export const COURSE_SORTS = ['title', 'registrations', 'updated'] as const
export type CourseSort = (typeof COURSE_SORTS)[number]
export type SortOrder = 'asc' | 'desc'
export const VISIBILITY_FILTERS = ['all', 'visible', 'hidden'] as const
export type VisibilityFilter = (typeof VISIBILITY_FILTERS)[number]

export type CatalogueQuery = {
  search: string
  sort: CourseSort
  order: SortOrder
  pageSize: CoursePageSize
  page: number
  visibility: VisibilityFilter
}

export const DEFAULT_CATALOGUE_QUERY: CatalogueQuery = {
  search: '',
  sort: 'title',
  order: 'asc',
  pageSize: 12,
  page: 1,
  visibility: 'all',
}

/** docs/product-rules.md §5: a case-insensitive substring of the title or of any tag. */
export function matchesSearch(course: Pick<Course, 'title' | 'tags'>, search: string): boolean {
  const term = search.trim().toLowerCase()
  if (!term) return true
  return course.title.toLowerCase().includes(term) || course.tags.some((tag) => tag.toLowerCase().includes(term))
}

/** docs/product-rules.md §4: an undefined visibility counts as hidden. */
export function matchesVisibility(course: Pick<Course, 'isVisible'>, filter: VisibilityFilter): boolean {
  if (filter === 'all') return true
  const visible = course.isVisible === true
  return filter === 'visible' ? visible : !visible
}

const time = (value: string | null | undefined) => {
  const ms = value ? Date.parse(value) : Number.NaN
  return Number.isNaN(ms) ? null : ms
}

const collator = new Intl.Collator('en', { sensitivity: 'base', numeric: true })

/** Courses without a date sort last in both orders; ties keep title order. */
function compare(a: Course, b: Course, sort: CourseSort): number {
  if (sort === 'registrations') return (a.registrationCount ?? 0) - (b.registrationCount ?? 0)
  if (sort === 'updated') {
    const [x, y] = [time(a.updated), time(b.updated)]
    if (x === null || y === null) return 0
    return x - y
  }
  return collator.compare(a.title, b.title)
}

export function sortCourses(courses: readonly Course[], sort: CourseSort, order: SortOrder): Course[] {
  const sign = order === 'asc' ? 1 : -1
  return [...courses].sort((a, b) => {
    if (sort === 'updated') {
      const [x, y] = [time(a.updated), time(b.updated)]
      if (x === null && y !== null) return 1
      if (y === null && x !== null) return -1
    }
    return sign * compare(a, b, sort) || collator.compare(a.title, b.title) || a.id.localeCompare(b.id)
  })
}

/** Search, visibility filter (admins only), sort, then the page. */
export function applyCatalogueQuery(courses: readonly Course[], query: CatalogueQuery, canFilterVisibility: boolean) {
  const matching = courses.filter(
    (c) => matchesSearch(c, query.search) && (!canFilterVisibility || matchesVisibility(c, query.visibility)),
  )
  const sorted = sortCourses(matching, query.sort, query.order)
  const totalPages = Math.max(1, Math.ceil(sorted.length / query.pageSize))
  const page = Math.min(Math.max(1, query.page), totalPages)
  const start = (page - 1) * query.pageSize
  return { items: sorted.slice(start, start + query.pageSize), total: sorted.length, page, totalPages }
}

/** docs/product-rules.md §2: "Showing X to Y of N course(s)". */
export function showingCoursesText(page: number, pageSize: number, total: number): string {
  const { from, to } = showingRange(page, pageSize, total)
  return `Showing ${from} to ${to} of ${total} ${total === 1 ? 'course' : 'courses'}`
}
