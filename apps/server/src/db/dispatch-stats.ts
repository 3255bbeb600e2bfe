/** dispatch_stat's live registrations and distinct learners, in all and per completion status. */
export interface KeptRegistrationStats {
  registrations: number
  learners: number
  completed: number
  learnersCompleted: number
  incomplete: number
  learnersIncomplete: number
  notAttempted: number
  learnersNotAttempted: number
}
