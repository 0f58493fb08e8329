import { invalid } from '../options.js'

/** A `YYYY-MM-DD` (or `YYYYMMDD`) day, normalized to `YYYY-MM-DD`. */
export function checkDay(name: string, given: unknown): string | undefined {
  if (given === undefined) return undefined
  const match = typeof given === 'string' ? /^(\d{4})-?(\d{2})-?(\d{2})$/.exec(given) : null
  const day = match === null ? undefined : `${match[1]}-${match[2]}-${match[3]}`
  if (
    day === undefined ||
    Number.isNaN(Date.parse(`${day}T00:00:00Z`)) ||
    new Date(`${day}T00:00:00Z`).toISOString().slice(0, 10) !== day
  ) {
    throw invalid(name, given, 'a day as YYYY-MM-DD')
  }
  return day
}

/** The calendar day of a timestamp in a time zone (the system's by default), or undefined for a bad one. */
export function dayFormatter(timeZone: unknown): (timestamp: string) => string | undefined {
  if (timeZone !== undefined && typeof timeZone !== 'string')
    throw invalid('timeZone', timeZone, 'an IANA time zone name')
  let format: Intl.DateTimeFormat
  try {
    format = new Intl.DateTimeFormat('en-CA', {
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      ...(timeZone === undefined ? {} : { timeZone }),
    })
  } catch {
    throw invalid('timeZone', timeZone, 'an IANA time zone name')
  }
  return (timestamp) => {
    const time = Date.parse(timestamp)
    return Number.isNaN(time) ? undefined : format.format(time)
  }
}
