import { describe, expect, it } from 'vitest'
import { activeBranch } from '../src/index.js'
import { makeChain, makeRecord } from './helpers/records.js'

const uuids = (branch: { records: { uuid: string }[] }) => branch.records.map((r) => r.uuid)

describe('activeBranch walks parentUuid links from the leaf back to the root', () => {
  it('returns the whole chain root → leaf for a linear session', () => {
    const branch = activeBranch(makeChain(4))
    expect(uuids(branch)).toEqual(['u0', 'u1', 'u2', 'u3'])
    expect(branch.gaps).toEqual([])
    expect(branch.leafUuid).toBe('u3')
  })

  it('follows only the branch of the leaf after a fork (a rewind)', () => {
    const records = [
      makeRecord(0, null),
      makeRecord(1, 'u0'),
      makeRecord(2, 'u1'),
      makeRecord(3, 'u0'),
      makeRecord(4, 'u3'),
    ]
    expect(uuids(activeBranch(records))).toEqual(['u0', 'u3', 'u4'])
    expect(uuids(activeBranch(records, 'u2'))).toEqual(['u0', 'u1', 'u2'])
  })

  it('ends at a missing parent with an explicit gap, never a silent cut', () => {
    const records = [makeRecord(0, null), makeRecord(2, 'u1-lost'), makeRecord(3, 'u2')]
    const branch = activeBranch(records)
    expect(uuids(branch)).toEqual(['u2', 'u3'])
    expect(branch.gaps).toEqual([
      {
        kind: 'missing-parent',
        childUuid: 'u2',
        parentUuid: 'u1-lost',
        detail: 'history before "u2" is lost: its parent "u1-lost" is not in the transcript',
      },
    ])
  })

  it('stops at a cycle instead of looping forever', () => {
    const records = [makeRecord(1, 'u3'), makeRecord(2, 'u1'), makeRecord(3, 'u2')]
    const branch = activeBranch(records)
    expect(uuids(branch)).toEqual(['u1', 'u2', 'u3'])
    expect(branch.gaps).toMatchObject([{ kind: 'cycle', childUuid: 'u1', parentUuid: 'u3' }])
  })

  it('returns an empty branch for no records', () => {
    expect(activeBranch([])).toEqual({ records: [], gaps: [], leafUuid: null })
  })

  it('throws a TypeError for a leaf that is not among the records', () => {
    expect(() => activeBranch(makeChain(2), 'nope')).toThrow(
      'Expected `leafUuid` to be the uuid of one of the records, got `nope` (string)',
    )
  })

  it('walks a long chain without recursion', () => {
    const branch = activeBranch(makeChain(50_000))
    expect(branch.records).toHaveLength(50_000)
    expect(branch.gaps).toEqual([])
  })
})
