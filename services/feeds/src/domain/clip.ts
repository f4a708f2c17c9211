// Shortening text for titles and excerpts: shared by the page reader (pages.ts) and the parser
// thread's tasks (page-tasks.ts), which must not import each other's modules.
/** Whitespace collapsed, cut to `max` characters with an ellipsis. */
export function clip(text: string, max: number): string {
  const clean = text.replace(/\s+/g, ' ').trim();
  return clean.length > max ? `${clean.slice(0, max - 1)}…` : clean;
}
