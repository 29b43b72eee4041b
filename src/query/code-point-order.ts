/**
 * Orders two strings by Unicode code point, which is also the byte order of their UTF-8 encodings: the
 * order a SQL store with a binary collation gives. Neither `localeCompare` (locale rules) nor `<` (UTF-16
 * units, which put U+10000 and above before U+E000..U+FFFF) gives it.
 */
export function compareCodePoints(a: string, b: string): number {
  const length = Math.min(a.length, b.length)
  for (let i = 0; i < length; i++) {
    const x = a.charCodeAt(i)
    const y = b.charCodeAt(i)
    if (x !== y) return unitRank(x) - unitRank(y)
  }
  return a.length - b.length
}

// The first differing UTF-16 unit decides. Moving surrogates (0xD800..0xDFFF) above 0xE000..0xFFFF
// makes every astral character sort after the whole BMP, as its code point does; between two surrogates
// the order is already right. Being a per-unit bijection, the mapping stays a total order even for
// strings with lone surrogates.
function unitRank(unit: number): number {
  if (unit >= 0xe000) return unit - 0x800
  if (unit >= 0xd800) return unit + 0x2000
  return unit
}
