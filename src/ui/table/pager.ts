/** The pages a pager shows: at most `count` consecutive pages around the current one (spec §9: 5). */
export function pagerWindow(page: number, last: number, count = 5): number[] {
  const size = Math.min(count, last)
  let start = Math.max(1, page - Math.floor(size / 2))
  if (start + size - 1 > last) start = last - size + 1
  return Array.from({ length: size }, (_, i) => start + i)
}
