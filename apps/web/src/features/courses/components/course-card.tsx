import { can, formatDate, type Course, type Role } from '@portal/shared'
import { BarChart3, BookOpen, CheckCircle2, Clock, type LucideIcon } from 'lucide-react'
import { LazyImage } from '@/components/ui/lazy-image'
import { Link } from '@/components/ui/link'
import { paths } from '@/config/paths'
import { stockImageFor } from '../utils/stock-images'
import { AdminCourseBadges, VersionBadge } from './course-badges'

/** docs/product-rules.md §9: a card shows 3 tags, then "+N more". */
export const CARD_TAG_LIMIT = 3

function ImageFallback() {
  return (
    <div className="flex size-full items-center justify-center bg-slate-100">
      <BookOpen aria-hidden="true" className="size-10 text-slate-400" />
    </div>
  )
}

/** A fact of the card shown by its icon; its name is for screen readers. */
function IconFact({ icon: Icon, label, value }: { icon: LucideIcon; label: string; value: string }) {
  return (
    <div className="flex items-center gap-1">
      <Icon aria-hidden="true" className="size-3.5" />
      <dt className="sr-only">{label}</dt>
      <dd>{value}</dd>
    </div>
  )
}

/** docs/product-rules.md §2 course card. */
export function CourseCard({ course, role }: { course: Course; role: Role }) {
  const extraTags = course.tags.length - CARD_TAG_LIMIT
  return (
    <article
      aria-labelledby={`course-${course.id}`}
      className="flex flex-col overflow-hidden rounded-lg border border-slate-200 bg-white shadow-xs"
    >
      <LazyImage
        src={course.imageUrl || stockImageFor(course.id)}
        alt=""
        fallback={<ImageFallback />}
        className="h-40 w-full"
      />
      <div className="flex flex-1 flex-col gap-3 p-4">
        <div className="flex items-start justify-between gap-2">
          <h2 id={`course-${course.id}`} className="text-base font-semibold text-slate-900">
            {course.title}
          </h2>
          <VersionBadge version={course.version} />
        </div>
        {can(role, 'course.readHidden') && (
          <div className="flex flex-wrap gap-1">
            <AdminCourseBadges course={course} />
          </div>
        )}
        {course.summary && <p className="line-clamp-3 text-sm text-slate-600">{course.summary}</p>}
        <dl className="grid gap-1 text-xs text-slate-600">
          {course.duration && <IconFact icon={Clock} label="Duration" value={course.duration} />}
          {course.level && <IconFact icon={BarChart3} label="Level" value={course.level} />}
          <div>
            <dt className="inline">Updated: </dt>
            <dd className="inline">{formatDate(course.updated)}</dd>
          </div>
        </dl>
        {course.tags.length > 0 && (
          <ul aria-label="Tags" className="flex flex-wrap gap-1">
            {course.tags.slice(0, CARD_TAG_LIMIT).map((tag) => (
              <li key={tag} className="rounded bg-slate-100 px-2 py-0.5 text-xs text-slate-700">
                {tag}
              </li>
            ))}
            {extraTags > 0 && <li className="px-1 py-0.5 text-xs text-slate-600">{`+${extraTags} more`}</li>}
          </ul>
        )}
        <div className="mt-auto flex items-center justify-between gap-2 border-t border-slate-100 pt-3">
          <Link to={paths.course.getHref(course.id)} aria-label={`View Details: ${course.title}`}>
            View Details
          </Link>
          {can(role, 'courseRequest.create') &&
            (course.requestable ? (
              <Link
                to={paths.course.getHref(course.id, { request: true })}
                aria-label={`Request: ${course.title}`}
                className="rounded-md bg-blue-700 px-3 py-1.5 text-sm text-white hover:bg-blue-800 hover:no-underline"
              >
                Request
              </Link>
            ) : (
              <span className="inline-flex items-center gap-1 text-sm text-green-800">
                <CheckCircle2 aria-hidden="true" className="size-4" />
                Already Assigned
              </span>
            ))}
        </div>
      </div>
    </article>
  )
}
