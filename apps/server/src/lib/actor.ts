/** Who did something, as the activity log keeps it (docs/product-rules.md §3); all null for a system row. */
export interface Actor {
  id: string | null
  name: string | null
  email: string | null
}
