/** An icon-only control's name: read by screen readers (aria-label) and shown on hover (title). */
export const iconOnlyName = (name: string) => ({ 'aria-label': name, title: name })
