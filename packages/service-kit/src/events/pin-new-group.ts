import type { Kafka } from 'kafkajs'

/**
 * How long the pinning member's idle fetch waits. kafkajs' `admin.setOffsets` joins the
 * group with a consumer of default settings and waits for its first fetch, which, with every
 * partition paused, is a sleep of the default `maxWaitTimeInMs` (5 s), once per topic: a
 * service with five new groups on two topics each spent 30 s in it before it was ready.
 */
const IDLE_FETCH_MS = 50

/** A place in a topic's partition; `offset` is the next message to read there. */
export interface TopicPosition {
  topic: string
  partition: number
  offset: string
}

interface Start {
  topic: string
  partitions: Array<{ partition: number; offset: string }>
}

/**
 * Fixes where a new consumer group starts, before its first member joins: at each topic's
 * current end (`'end'`), at the first event published at or after an instant (epoch ms), or
 * at given positions (a read model's snapshot; a partition they do not name: its beginning).
 *
 * A group that starts "at the end" would, left to Kafka, read the end only when it first
 * fetches, after the join: an event published between the caller's start and that fetch is
 * skipped. Committing the positions for the partitions the group has no offset on yet fixes
 * its start at this moment instead. A group that already committed keeps its place (a
 * restarted mail consumer resumes, it does not skip).
 */
export async function pinNewGroup(
  kafka: Kafka,
  groupId: string,
  topics: readonly string[],
  from: 'end' | number | readonly TopicPosition[],
): Promise<void> {
  const starts = await startsOfUnsetPartitions(kafka, groupId, topics, from)
  if (starts.length > 0) await commitAsMember(kafka, groupId, starts)
}

async function startsOfUnsetPartitions(
  kafka: Kafka,
  groupId: string,
  topics: readonly string[],
  from: 'end' | number | readonly TopicPosition[],
): Promise<Start[]> {
  const admin = kafka.admin()
  await admin.connect()
  try {
    const starts: Start[] = []
    const committed = await admin.fetchOffsets({ groupId, topics: [...topics] })
    for (const { topic, partitions } of committed) {
      const unset = new Set(partitions.filter((p) => Number(p.offset) < 0).map((p) => p.partition))
      if (unset.size === 0) continue
      // By time: the first offset whose timestamp is at or after the instant (the end when
      // none is), as the broker's ListOffsets answers it.
      const positions = Array.isArray(from)
        ? (await admin.fetchTopicOffsets(topic)).map(({ partition, low }) => ({
            partition,
            offset: from.find((p) => p.topic === topic && p.partition === partition)?.offset ?? low,
          }))
        : from === 'end'
          ? (await admin.fetchTopicOffsets(topic)).map((end) => ({
              partition: end.partition,
              offset: end.high,
            }))
          : await admin.fetchTopicOffsetsByTimestamp(topic, from as number)
      starts.push({
        topic,
        partitions: positions
          .filter((position) => unset.has(position.partition))
          .map((position) => ({ partition: position.partition, offset: position.offset })),
      })
    }
    return starts
  } finally {
    await admin.disconnect()
  }
}

/**
 * What `admin.setOffsets` does (join the group, seek, which commits, leave), for every topic
 * in one membership and with a short idle fetch: the seeks are committed by the time the
 * first fetch returns. Only a group without running members can be pinned, which a new
 * group is.
 */
async function commitAsMember(kafka: Kafka, groupId: string, starts: Start[]): Promise<void> {
  const member = kafka.consumer({ groupId, maxWaitTimeInMs: IDLE_FETCH_MS })
  await member.connect()
  try {
    await member.subscribe({ topics: starts.map((start) => start.topic), fromBeginning: true })
    await new Promise<void>((resolve, reject) => {
      member.on(member.events.FETCH, () => resolve())
      member.run({ eachBatchAutoResolve: false, eachBatch: async () => undefined }).catch(reject)
      member.pause(starts.map((start) => ({ topic: start.topic })))
      for (const { topic, partitions } of starts) {
        for (const { partition, offset } of partitions) member.seek({ topic, partition, offset })
      }
    })
  } finally {
    await member.disconnect()
  }
}
