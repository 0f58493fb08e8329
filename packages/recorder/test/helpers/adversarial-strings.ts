import fc from 'fast-check'

/** Strings JSON.stringify has to work for: escapes, controls, lone and paired surrogates, U+2028/2029. */
export const adversarialString = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 30 }),
  fc.string({ unit: 'grapheme', maxLength: 12 }),
  fc.string({
    unit: fc.constantFrom(
      '"',
      '\\',
      '\n',
      '\r',
      '\t',
      '\b',
      '\f',
      '\0',
      '\u001f',
      '\u007f',
      '\u2028',
      '\u2029',
      '\ud800',
      '\udfff',
      '\ud83d',
      '\ude00',
      '😀',
      'é',
      '日',
      '/',
      'a',
    ),
    maxLength: 40,
  }),
)
