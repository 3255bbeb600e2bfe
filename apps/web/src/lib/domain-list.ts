/** The e-mail domains typed in a sign-in domains field, separated by commas or spaces. */
export const domainList = (text: string): string[] => text.split(/[\s,]+/).filter(Boolean)
