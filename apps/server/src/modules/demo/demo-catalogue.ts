import type { DemoRepository } from './demo.repository'

const LEVELS = ['Beginner', 'Intermediate', 'Advanced'] as const
const DURATIONS = ['45 minutes', '1 hour', '90 minutes', '2 hours', '3 hours'] as const

/**
 * Demo mode only, on the first start: the catalogue as an admin would have curated it. The
 * mirror's courses start hidden with empty portal fields (docs/product-rules.md §3), which would leave the demo
 * client an empty catalogue. Every sixth course stays hidden so the admin's Hidden filter has
 * something to show; every third gets a demo link (clients see it once a request is processed).
 */
export async function seedDemoCatalogue(demo: DemoRepository) {
  const rows = await demo.liveCourses()
  for (const [i, row] of rows.entries()) {
    await demo.curateCourse(row.id, {
      isVisible: i % 6 !== 5,
      summary: `A practical course on ${row.title.toLowerCase()} for teams and their managers.`,
      description:
        `<p><strong>${escapeHtml(row.title)}</strong> takes learners from the essentials to everyday practice.</p>` +
        '<ul><li>Short lessons with real-world scenarios</li><li>A knowledge check at the end of each module</li></ul>',
      duration: DURATIONS[i % DURATIONS.length]!,
      level: LEVELS[i % LEVELS.length]!,
      demoUrl: i % 3 === 0 ? `https://demo.example.com/courses/${encodeURIComponent(row.id)}` : null,
    })
  }
}

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!)
