import { describe, expect, it } from 'vitest';
import { markdownBlocks } from './terms-page';

describe('markdownBlocks', () => {
  it('takes a heading line alone, even when its paragraph follows without a blank line', () => {
    expect(markdownBlocks('# Terms\n\n## 1. Service\nBilan is\na back office.\n\nSecond <b>paragraph</b>.')).toEqual([
      { heading: 1, text: 'Terms' },
      { heading: 2, text: '1. Service' },
      { heading: 0, text: 'Bilan is a back office.' },
      { heading: 0, text: 'Second <b>paragraph</b>.' },
    ]);
  });
});
