/** The ids of the inbox's section headings: focus goes there when the entry it was on goes away. */
export const SECTION_IDS = {
  waiting: 'attention-waiting',
  unanswered: 'attention-unanswered',
  feedback: 'attention-feedback',
} as const;

/** Moves focus to a section's heading, or to the page when the section is gone (nothing left). */
export function focusSection(id: string) {
  const target = document.getElementById(id) ?? document.getElementById('main');
  if (!target) return;
  // The page's main region is not focusable by itself.
  if (!target.hasAttribute('tabindex')) target.setAttribute('tabindex', '-1');
  target.focus();
}
