/** Word lists for realistic-looking demo data (course titles, companies, learners). */

/** Splits a `|`/newline separated list; keeps the long lists compact. */
function words(text: string): string[] {
  return text
    .split(/[|\n]/)
    .map((w) => w.trim())
    .filter(Boolean)
}

/**
 * [topic, tags] pairs, a `topic: tag tag` line each; titles are composed from a topic and a
 * pattern.
 */
export const COURSE_TOPICS: ReadonlyArray<readonly [string, readonly string[]]> = words(`
  Workplace Safety: safety compliance
  Excel: office data
  Data Privacy: compliance gdpr
  Information Security: security compliance
  Anti-Bribery: compliance legal
  Customer Service: soft-skills sales
  Project Management: management
  Leadership: management soft-skills
  Fire Safety: safety
  Forklift Operation: safety logistics
  Food Hygiene: safety hospitality
  First Aid: safety health
  Manual Handling: safety health
  Diversity and Inclusion: hr soft-skills
  Harassment Prevention: hr compliance
  Time Management: soft-skills
  Negotiation: sales soft-skills
  Financial Reporting: finance
  Budgeting: finance management
  Agile Scrum: management it
  Cloud Computing: it
  Python Programming: it data
  SQL: it data
  Cybersecurity Awareness: security
  Phishing Awareness: security
  Conflict Resolution: soft-skills hr
  Public Speaking: soft-skills
  Business Writing: soft-skills office
  Supply Chain: logistics
  Warehouse Operations: logistics safety
  Hazardous Materials: safety compliance
  Environmental Compliance: compliance environment
  Quality Management: quality
  Lean Six Sigma: quality management
  Sales Prospecting: sales
  Product Knowledge: sales onboarding
  Code of Conduct: compliance onboarding
  New Hire Orientation: onboarding hr
  Remote Work: soft-skills it
  Mental Health at Work: health hr
  Ergonomics: health safety
  Anti-Money Laundering: compliance finance
  Accessibility: it compliance
  Coaching: management soft-skills
  Change Management: management
  Electrical Safety: safety
  Driver Safety: safety logistics
  Infection Control: health compliance
  Emotional Intelligence: soft-skills
  Power BI: office data
`).map((line) => {
  const [topic = '', tags = ''] = line.split(':')
  return [topic.trim(), tags.trim().split(' ')]
})

/** `%` is replaced by the topic. */
export const TITLE_PATTERNS: readonly string[] = [
  '% Fundamentals',
  'Introduction to %',
  'Advanced % for Analysts',
  '% Essentials',
  '% for Managers',
  '% Refresher',
  '% Certification Prep',
  '% in Practice',
  '% for New Employees',
  'Mastering %',
]

export const COMPANY_PREFIXES: readonly string[] = words(`
  Northwind|Contoso|Fabrikam|Globex|Initech|Umbrella|Stark|Wayne|Tyrell|Acme|Blue Harbor|Silver Peak
  Redwood|Ironbridge|Brightwater|Summit|Evergreen|Granite|Oakridge|Lakeside|Pinecrest|Sterling|Horizon
  Crescent|Meridian|Atlas|Beacon|Cobalt|Falcon|Harbor Point|Keystone|Maple|Nimbus|Orion|Pioneer
  Quantum|Riverbend|Sapphire|Trident|Vanguard
`)

export const COMPANY_SUFFIXES: readonly string[] = words(`
  Logistics|Health|Manufacturing|Financial|Retail|Foods|Energy|Consulting|Pharmaceuticals|Construction
  Insurance|Hospitality|Telecom|Airlines|Motors|Bank|Labs|Systems|Group|Industries|Partners|Utilities
  Media|Clinics|Freight
`)

export const COMPANY_TLDS: readonly string[] = ['com', 'com', 'com', 'net', 'io', 'co.uk', 'de', 'org']

export const DESTINATION_TAGS: readonly string[] = [
  'enterprise',
  'smb',
  'emea',
  'americas',
  'apac',
  'pilot',
  'renewal-due',
]

export const DISPATCH_TAGS: readonly string[] = [
  'onboarding',
  'compliance',
  'q1-rollout',
  'pilot',
  'annual',
  'priority',
]

export const DISPATCH_NOTES: readonly string[] = [
  'Renewal due next quarter.',
  'Customer asked for SCORM 1.2 package only.',
  'Pilot group, extend if feedback is positive.',
  'Billing per registration, see contract.',
  'Requested by HR for annual compliance cycle.',
  'Keep enabled until the LMS migration is done.',
]

export const FIRST_NAMES: readonly string[] = words(`
  Maria|James|Aisha|Chen|Olivia|Liam|Sofia|Noah|Fatima|Lucas|Emma|Mateo|Hannah|Arjun|Chloe|Kenji
  Isabella|Ethan|Amara|Daniel|Priya|Lars|Zoe|Omar|Grace|Luca|Mia|Samuel|Yuki|Elena|David|Nora|Ahmed
  Lea|Pedro|Ingrid|Kwame|Anna|Tom|Sara|Felix|Julia|Ravi|Camila|Jonas|Leila|Marco|Emily|Hiro|Ana
`)

export const LAST_NAMES: readonly string[] = words(`
  Garcia|Smith|Khan|Wang|Johnson|Müller|Rossi|Brown|Okafor|Silva|Nguyen|Jones|Schmidt|Patel|Kim|Dubois
  Williams|Tanaka|Hansen|Lopez|Andersson|Taylor|Ivanova|Martin|Cohen|Mensah|Novak|Fischer|Costa
  O'Brien|Sato|Haddad|Larsen|Moreau|Kowalski|Evans|Reyes|Becker|Singh|Walker|Jensen|Ali|Clarke|Romero
  Weber|Hughes|Nakamura|Petrov|Young|Ahmed
`)

export const REALM_OWNER_EMAIL = 'owner@learning-provider.example'

/** Lower-case, ASCII-only, hyphen-separated; used for ids and e-mail domains. */
export function slugify(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
}
