import { HOLD_CHARS } from './held-scan.js'
import { type Held, type HeldText, PIECE_CHARS } from './held-text.js'
import { isOmitted, isRawJSON, resolveToJSON, unwrap } from './json-spec.js'

// A container is handed to native JSON.stringify whole when a bounded look says it is small: at most
// SMALL_KEYS own keys each, SMALL_NODES values and HOLD_CHARS code units of strings in all, SMALL_DEPTH
// deep, and no toJSON but Date's (whose result is small). Native is ~2× faster than walking here, and
// one such call costs at most ~0.1 ms, so the slices stay bounded. Text is gathered in pieces and joined
// into flat parts of about PIECE_CHARS: flat, so that writing a part never makes V8 flatten a rope of the
// whole record in one go.
const SMALL_KEYS = 64
const SMALL_NODES = 512
const SMALL_DEPTH = 16
// The clock is read once per this many steps (and after every native call of a container).
const STEPS_PER_CLOCK = 32

/** A container being written: its keys (an array: `null`) and where the walk is in it. */
interface Frame {
  readonly value: object
  readonly keys: readonly string[] | null
  readonly length: number
  index: number
  // No member written yet (an object's members are separated by commas only once one is written).
  first: boolean
}

/**
 * Snapshot mode: `JSON.stringify(value)` now, byte for byte, except that strings of at least `holdChars`
 * code units are held by reference (see held-text.ts). Every property is read now; only the (immutable)
 * strings wait. One string when none is held; `undefined` when the value itself is omitted.
 */
export function stringifyHolding(value: unknown, holdChars = HOLD_CHARS): string | HeldText | undefined {
  const walk = new JsonWalk(value, holdChars)
  walk.step(Infinity)
  return walk.result()
}

/**
 * The one walk of JSON.stringify's algorithm, resumable. {@link step} works until a deadline and can be
 * called again on a later event-loop turn (slices mode, for data handed over: `record(…, { handOver: true })`,
 * which it reads while it runs — no snapshot), or once with no deadline ({@link stringifyHolding}, the
 * snapshot). Strings of at least `holdChars` code units are held by reference (escaped when written).
 *
 * The walk is the spec's SerializeJSONProperty with an explicit stack instead of recursion: toJSON
 * called with its key, wrapper objects unwrapped, undefined/functions/symbols omitted (`null` in arrays),
 * own enumerable keys in order (`Object.keys`, read once per object), lengths read once per array,
 * circular structures refused. Errors are JSON.stringify's (TypeError for a cycle or a BigInt), or
 * whatever a getter, toJSON or Proxy trap throws; nesting deeper than V8's stack is written, not refused.
 * Unlike JSON.stringify it may read a property twice (a container is looked at before it is written), so
 * a getter that returns a new value per read gives one of its values — data handed over does not change.
 */
export class JsonWalk {
  readonly #holdChars: number
  readonly #stack: Frame[] = []
  // The containers on the stack: meeting one again is a cycle.
  readonly #open = new Set<object>()
  readonly #parts: (string | Held)[] = []
  #pieces: string[] = []
  #piecesChars = 0
  #chars = 0
  #heldChars = 0
  // UTF-8 bytes of the text parts, counted a part at a time (see HeldText.textBytes).
  #textBytes = 0
  #started = false
  #done = false
  // A native call of a container was made since the clock was last read.
  #clockDue = false
  #root: unknown
  // Keys of a big object, read by the look that found it big: not read twice.
  #bigKeys: { readonly value: object; readonly keys: readonly string[] } | null = null

  constructor(value: unknown, holdChars = HOLD_CHARS) {
    this.#root = value
    this.#holdChars = holdChars
  }

  /**
   * Serializes until `deadline` (a `performance.now()` time) has passed or the value is written; true when
   * it is. A step may overrun the deadline by one native call of a small container or one key list.
   */
  step(deadline: number): boolean {
    if (this.#done) return true
    if (!this.#started) {
      this.#started = true
      const root = this.#root
      this.#root = undefined
      this.#property('', root)
    }
    let steps = 0
    const stack = this.#stack
    while (stack.length > 0) {
      if (deadline !== Infinity && (++steps >= STEPS_PER_CLOCK || this.#clockDue)) {
        steps = 0
        this.#clockDue = false
        if (performance.now() >= deadline) return false
      }
      const frame = stack[stack.length - 1]!
      if (frame.index >= frame.length) {
        this.#emit(frame.keys === null ? ']' : '}')
        stack.pop()
        this.#open.delete(frame.value)
        continue
      }
      this.#peeked = null
      if (this.#run(frame)) continue
      // The next member is big: written on its own (a big string held, a big container pushed). The run
      // that found it big read it already: it is not read twice.
      const index = frame.index++
      const key = frame.keys === null ? String(index) : frame.keys[index]!
      const peeked = this.#peeked as { frame: Frame; value: unknown } | null
      const member = peeked?.frame === frame ? peeked.value : (frame.value as Record<string, unknown>)[key]
      if (frame.keys === null) {
        if (index > 0) this.#emit(',')
        if (!this.#property(key, member)) this.#emit('null')
        continue
      }
      const resolved = resolveToJSON(key, member)
      if (isOmitted(resolved.value)) continue
      this.#emit(`${frame.first ? '' : ','}${JSON.stringify(key)}:`)
      frame.first = false
      this.#write(resolved.value, resolved.fromToJSON)
    }
    this.#done = true
    return true
  }

  /**
   * The JSON text, once {@link step} returned true: one string when it fits one part, otherwise the parts
   * (flat strings of about PIECE_CHARS, and the strings held), never joined into one string here: that
   * would copy a big record in one go. `undefined` when the value itself is omitted (as JSON.stringify).
   */
  result(): string | HeldText | undefined {
    this.#flush()
    const parts = this.#parts
    if (parts.length === 0) return undefined
    if (parts.length === 1 && typeof parts[0] === 'string') return parts[0]
    return { parts, chars: this.#chars, heldChars: this.#heldChars, textBytes: this.#textBytes }
  }

  /** SerializeJSONProperty for a value read from its holder; false when it is omitted. */
  #property(key: string, value: unknown): boolean {
    const resolved = resolveToJSON(key, value)
    if (isOmitted(resolved.value)) return false
    this.#write(resolved.value, resolved.fromToJSON)
    return true
  }

  /**
   * Writes a value whose toJSON was applied and which is not omitted: a primitive or a small container at
   * once, a big container by pushing it on the stack.
   */
  #write(value: unknown, fromToJSON: boolean): void {
    if (typeof value === 'string') {
      if (value.length >= this.#holdChars) this.#hold(value)
      else this.#emit(JSON.stringify(value))
      return
    }
    if (typeof value !== 'object' || value === null) {
      // Numbers, booleans, null; a BigInt throws here, as JSON.stringify does.
      this.#emit(JSON.stringify(value))
      return
    }
    // What toJSON returned is not asked for toJSON again, but a native call would ask: walk it here.
    const walkHere = fromToJSON && typeof (value as { toJSON?: unknown }).toJSON === 'function'
    if (Array.isArray(value)) {
      if (walkHere || !this.#isSmall(value)) this.#push(value, null, value.length)
      else this.#native(value)
      return
    }
    if (isRawJSON?.(value) === true) return this.#native(value)
    const primitive = unwrap(value)
    if (primitive !== value) return this.#write(primitive, false)
    if (!walkHere && this.#isSmall(value)) return this.#native(value)
    const keys = this.#keysOf(value)
    if (this.#bigKeys?.value === value) this.#bigKeys = null
    this.#push(value, keys, keys.length)
  }

  /** `Object.keys(value)`, unless a look just read them: enumerating 10⁵ keys takes ~15 ms here. */
  #keysOf(value: object): readonly string[] {
    const cached = this.#bigKeys
    return cached !== null && cached.value === value ? cached.keys : Object.keys(value)
  }

  #native(value: object): void {
    this.#emit(JSON.stringify(value))
    this.#clockDue = true
  }

  #push(value: object, keys: readonly string[] | null, length: number): void {
    if (this.#open.has(value)) throw new TypeError('Converting circular structure to JSON')
    this.#open.add(value)
    this.#emit(keys === null ? '[' : '{')
    this.#stack.push({ value, keys, length, index: 0, first: true })
  }

  /**
   * Writes a run of small members of `frame` from its current index with one native call: copied (read
   * once) into a plain array or a prototype-less object, whose JSON is the same text as theirs. Several
   * members per native call is 1.5× (keys) to 3× (array items) faster than one call each. False when the
   * next member is not small; it is then written on its own.
   */
  #run(frame: Frame): boolean {
    this.#resetBudget()
    const { value, keys, length } = frame
    const holder = value as Record<string, unknown>
    const start = frame.index
    let end = start
    if (keys === null) {
      const items: unknown[] = []
      for (; end < length && this.#lookNodes > 0; end++) {
        const item = holder[end]
        if (!this.#isSmallMember(item, 0)) {
          this.#peeked = { frame, value: item }
          break
        }
        items.push(item)
      }
      if (end === start) return false
      const text = JSON.stringify(items)
      this.#emit(`${start > 0 ? ',' : ''}${text.slice(1, -1)}`)
    } else {
      const members = Object.create(null) as Record<string, unknown>
      let named = false
      let lastIndex = -1
      for (; end < length && this.#lookNodes > 0; end++) {
        const key = keys[end]!
        // The copy must serialize as its members do: an own toJSON would be called on the copy itself, and
        // the copy puts index-like keys first, ascending — a Proxy's ownKeys may list them otherwise.
        if (key === 'toJSON') break
        if (isIndexLike(key)) {
          const index = Number(key)
          if (named || index <= lastIndex) break
          lastIndex = index
        } else named = true
        const member = holder[key]
        if (!this.#isSmallMember(member, 0)) {
          this.#peeked = { frame, value: member }
          break
        }
        members[key] = member
      }
      if (end === start) return false
      const text = JSON.stringify(members)
      // Every member may be omitted (undefined, a function): then nothing, not even a comma, is written.
      if (text.length > 2) {
        this.#emit(`${frame.first ? '' : ','}${text.slice(1, -1)}`)
        frame.first = false
      }
    }
    frame.index = end
    this.#clockDue = true
    return true
  }

  // The member a run stopped at, already read (see #run).
  #peeked: { readonly frame: Frame; readonly value: unknown } | null = null
  // What a bounded look may still visit (see SMALL_NODES; strings: HOLD_CHARS).
  #lookNodes = 0
  #lookChars = 0

  #resetBudget(): void {
    this.#lookNodes = SMALL_NODES
    this.#lookChars = HOLD_CHARS
  }

  /** A bounded look at a container: small enough to be one native call (see SMALL_NODES). */
  #isSmall(value: object): boolean {
    this.#resetBudget()
    return this.#isSmallContainer(value, 0)
  }

  /**
   * A member a native call writes exactly as the walk would: a primitive but a BigInt (a BigInt's toJSON
   * would be given the key the copy has, not its own), a string under `holdChars`, a small container.
   * Counts against the look's budget.
   */
  #isSmallMember(member: unknown, level: number): boolean {
    this.#lookNodes--
    if (typeof member === 'string') {
      this.#lookChars -= member.length
      return this.#lookChars >= 0 && member.length < this.#holdChars
    }
    if (typeof member === 'object' && member !== null) return this.#isSmallContainer(member, level + 1)
    return typeof member !== 'bigint'
  }

  #isSmallContainer(value: object, level: number): boolean {
    if (level > SMALL_DEPTH) return false
    const toJSON = (value as { toJSON?: unknown }).toJSON
    if (typeof toJSON === 'function') return toJSON === DATE_TO_JSON
    let keys: readonly string[] | null = null
    let length: number
    if (Array.isArray(value)) length = value.length
    else {
      keys = this.#keysOf(value)
      length = keys.length
      if (length > SMALL_KEYS) {
        this.#bigKeys = { value, keys }
        return false
      }
    }
    if (length > this.#lookNodes) return false
    for (let i = 0; i < length; i++) {
      const child = (value as Record<string, unknown>)[keys === null ? i : keys[i]!]
      if (!this.#isSmallMember(child, level)) return false
    }
    return true
  }

  #hold(raw: string): void {
    this.#flush()
    this.#parts.push({ raw })
    this.#chars += raw.length + 2
    this.#heldChars += raw.length
  }

  #emit(text: string): void {
    this.#pieces.push(text)
    this.#piecesChars += text.length
    if (this.#piecesChars >= PIECE_CHARS) this.#flush()
  }

  #flush(): void {
    if (this.#piecesChars === 0) return
    const text = this.#pieces.length === 1 ? this.#pieces[0]! : this.#pieces.join('')
    this.#parts.push(text)
    this.#chars += text.length
    this.#textBytes += Buffer.byteLength(text)
    this.#pieces = []
    this.#piecesChars = 0
  }
}

/** A key ordinary objects enumerate before named keys, ascending: an array index (below 2³² − 1). */
function isIndexLike(key: string): boolean {
  const first = key.charCodeAt(0)
  if (first < 0x30 || first > 0x39) return false
  return INDEX.test(key) && Number(key) < 4294967295
}
const INDEX = /^(?:0|[1-9]\d{0,9})$/

// Date's toJSON returns a short string (or null): a Date is as small as a string.
// eslint-disable-next-line @typescript-eslint/unbound-method
const DATE_TO_JSON = Date.prototype.toJSON
