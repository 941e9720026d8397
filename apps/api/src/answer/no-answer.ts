/** What the assistant says when the knowledge holds nothing relevant (it never invents instead). */
export const NOT_COVERED_ANSWER =
  'The knowledge of this application does not cover this question, so I cannot answer it from there.';
