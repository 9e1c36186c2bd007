import { describe, expect, it } from 'vitest';
import { attendeeLine } from './attendee-line.ts';

describe('attendeeLine', () => {
  it('names the attendees, then each question once with all its answers', () => {
    expect(
      attendeeLine({
        attendees: [{ name: 'Asha Verma' }, { name: 'Ravi Verma' }],
        answers: [
          { label: 'T-shirt size', value: 'M' },
          { label: 'T-shirt size', value: 'L' },
          { label: 'Diet', value: 'Veg' },
        ],
      }),
    ).toBe('Asha Verma, Ravi Verma · T-shirt size: M, L · Diet: Veg');
  });

  it('is empty when nothing was asked', () => {
    expect(attendeeLine({ attendees: [], answers: [] })).toBe('');
  });
});
