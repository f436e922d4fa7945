import type { Interner } from '@marketplace/read-models/feed'
import type { PostDocument } from '../posts/post-document'

/**
 * A post as the feed holds it and as its snapshot stores it. The feed keeps only what a card
 * shows, filters and searches on (never the outbox), with the strings many posts repeat
 * (owner, place, category, payment list, search words) shared through the interner; every
 * post has the same fields in the same order, so V8 gives them one compact shape.
 */
export function compactPost(post: PostDocument, intern: Interner): PostDocument {
  return {
    _id: post._id,
    userID: intern.string(post.userID),
    title: post.title,
    location: intern.string(post.location),
    jobStartEnd: intern.string(post.jobStartEnd),
    salary: intern.string(post.salary),
    paymentType: intern.list(post.paymentType),
    contact: intern.string(post.contact),
    contactValue: post.contactValue ?? '',
    infos: post.infos,
    displayLocation: post.displayLocation,
    displayContact: post.displayContact,
    jobPicture: post.jobPicture,
    category: intern.string(post.category),
    categoryExplicit: post.categoryExplicit,
    isOnline: post.isOnline,
    takenDown: post.takenDown,
    ownerLeaving: post.ownerLeaving ?? false,
    expirationDate: post.expirationDate === null ? null : intern.string(post.expirationDate),
    expiresAt: post.expiresAt,
    searchWords: intern.each(post.searchWords),
    createdAt: post.createdAt,
    // The same instant as createdAt until the post is edited: one Date for both.
    updatedAt:
      post.updatedAt.getTime() === post.createdAt.getTime() ? post.createdAt : post.updatedAt,
  }
}

/** A post as one snapshot line: its values in a fixed order (no field names), times as numbers. */
export type PostRecord = [
  _id: string,
  userID: string,
  title: string,
  location: string,
  jobStartEnd: string,
  salary: string,
  paymentType: string[],
  contact: string,
  contactValue: string,
  infos: string,
  displayLocation: boolean,
  displayContact: boolean,
  jobPicture: string | null,
  category: string,
  categoryExplicit: boolean,
  isOnline: boolean,
  takenDown: boolean,
  ownerLeaving: boolean,
  expirationDate: string | null,
  expiresAt: number | null,
  searchWords: string[],
  createdAt: number,
  updatedAt: number,
]

export function toRecord(post: PostDocument): PostRecord {
  return [
    post._id,
    post.userID,
    post.title,
    post.location,
    post.jobStartEnd,
    post.salary,
    post.paymentType,
    post.contact,
    post.contactValue ?? '',
    post.infos,
    post.displayLocation,
    post.displayContact,
    post.jobPicture,
    post.category,
    post.categoryExplicit,
    post.isOnline,
    post.takenDown,
    post.ownerLeaving ?? false,
    post.expirationDate,
    post.expiresAt ? post.expiresAt.getTime() : null,
    post.searchWords,
    post.createdAt.getTime(),
    post.updatedAt.getTime(),
  ]
}

/** The post a snapshot line holds, built as compactPost builds it (one object, one shape). */
export function fromRecord(record: PostRecord, intern: Interner): PostDocument {
  const createdAt = new Date(record[21])
  return {
    _id: record[0],
    userID: intern.string(record[1]),
    title: record[2],
    location: intern.string(record[3]),
    jobStartEnd: intern.string(record[4]),
    salary: intern.string(record[5]),
    paymentType: intern.list(record[6]),
    contact: intern.string(record[7]),
    contactValue: record[8],
    infos: record[9],
    displayLocation: record[10],
    displayContact: record[11],
    jobPicture: record[12],
    category: intern.string(record[13]),
    categoryExplicit: record[14],
    isOnline: record[15],
    takenDown: record[16],
    ownerLeaving: record[17],
    expirationDate: record[18] === null ? null : intern.string(record[18]),
    expiresAt: record[19] === null ? null : new Date(record[19]),
    searchWords: intern.each(record[20]),
    createdAt,
    updatedAt: record[22] === record[21] ? createdAt : new Date(record[22]),
  }
}

/** Whether a snapshot line is a post record (a bad line is dropped, never indexed). */
export function isPostRecord(value: unknown): value is PostRecord {
  return Array.isArray(value) && value.length === 23 && typeof value[0] === 'string'
}
