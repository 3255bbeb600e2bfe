import { formatDate, isHttpUrl, type CourseDetails } from '@portal/shared'
import { BarChart3, CalendarDays, Clock, ExternalLink } from 'lucide-react'
import { useState } from 'react'
import { stockImageFor } from '../utils/stock-images'
import { VersionBadge } from './course-badges'
import { RichDescription } from './rich-description'

/** docs/product-rules.md §2 demo link: the server sends demoUrl only to those the rule allows. */
export function DemoLink({ url }: { url: string | null | undefined }) {
  if (!url || !isHttpUrl(url)) return null
  return (
    <a
      href={url}
      target="_blank"
      rel="noopener noreferrer"
      className="inline-flex items-center gap-1.5 rounded-md bg-blue-700 px-3 py-2 text-sm font-medium text-white hover:bg-blue-800"
    >
      <ExternalLink aria-hidden="true" className="size-4" />
      View Demo
    </a>
  )
}

/** The course's image; a stock image bundled with the app when it has none or it fails (docs/product-rules.md §2). */
function HeroImage({ id, url }: { id: string; url: string | null }) {
  const [failed, setFailed] = useState<string | null>(null)
  const usable = url && isHttpUrl(url) && failed !== url
  return (
    <img
      src={usable ? url : stockImageFor(id)}
      alt=""
      onError={() => usable && setFailed(url)}
      className="h-56 w-full bg-slate-100 object-cover"
    />
  )
}

/** docs/product-rules.md §2 course details: hero image, title, version, summary, facts, description, tags. */
export function CourseOverview({ course }: { course: CourseDetails }) {
  return (
    <section
      aria-labelledby="course-title"
      className="overflow-hidden rounded-lg border border-slate-200 bg-white shadow-xs"
    >
      <HeroImage id={course.id} url={course.imageUrl} />
      <div className="space-y-4 p-6">
        <div className="flex flex-wrap items-start justify-between gap-3">
          <div className="flex flex-wrap items-center gap-2">
            <h1 id="course-title" className="text-2xl font-semibold tracking-tight text-slate-900">
              {course.title}
            </h1>
            <VersionBadge version={course.version} />
          </div>
          <DemoLink url={course.demoUrl} />
        </div>
        {course.summary && <p className="text-base text-slate-700">{course.summary}</p>}
        <dl className="flex flex-wrap gap-x-6 gap-y-2 text-sm text-slate-700">
          <div className="flex items-center gap-1.5">
            <Clock aria-hidden="true" className="size-4 text-slate-500" />
            <dt>Duration:</dt>
            <dd>{course.duration || 'N/A'}</dd>
          </div>
          <div className="flex items-center gap-1.5">
            <BarChart3 aria-hidden="true" className="size-4 text-slate-500" />
            <dt>Level:</dt>
            <dd>{course.level || 'N/A'}</dd>
          </div>
          <div className="flex items-center gap-1.5">
            <CalendarDays aria-hidden="true" className="size-4 text-slate-500" />
            <dt>Last Updated:</dt>
            <dd>{formatDate(course.updated)}</dd>
          </div>
        </dl>
        <div>
          <h2 className="mb-2 text-lg font-semibold text-slate-900">Description</h2>
          <RichDescription html={course.description} />
        </div>
        {course.tags.length > 0 && (
          <div>
            <h2 className="mb-2 text-sm font-semibold text-slate-900">Tags</h2>
            <ul aria-label="Tags" className="flex flex-wrap gap-1.5">
              {course.tags.map((tag) => (
                <li key={tag} className="rounded bg-slate-100 px-2 py-0.5 text-xs text-slate-700">
                  {tag}
                </li>
              ))}
            </ul>
          </div>
        )}
      </div>
    </section>
  )
}
