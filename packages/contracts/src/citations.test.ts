import { describe, expect, it } from 'vitest';
import { linkCitations } from './citations.ts';

describe('linkCitations', () => {
  it('turns [n] into citation links outside code', () => {
    expect(linkCitations('A [1], B [2, 3]. `x[1]` [link](http://x)')).toBe(
      'A [1](#cite-1), B [2](#cite-2)[3](#cite-3). `x[1]` [link](http://x)',
    );
  });

  it('leaves fenced code, and a fence still being streamed, alone', () => {
    expect(linkCitations('See [4].\n```\na[4]\n```\nand [5]\n```\nb[6]')).toBe(
      'See [4](#cite-4).\n```\na[4]\n```\nand [5](#cite-5)\n```\nb[6]',
    );
  });
});
