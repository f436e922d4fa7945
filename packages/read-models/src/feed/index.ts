export { FeedIndex, type FeedSchema, type FeedQuery, type FeedPage } from './feed-index'
export { OrderedList, feedOrder, type FeedItem } from './feed-order'
export { createOrderedApply } from './ordered-apply'
export { createInterner, type Interner } from './interner'
export {
  ColumnarFeed,
  type ColumnarSchema,
  type ColumnarQuery,
  type FeedRow,
  type SlotPage,
} from './columnar-feed'
export { packTexts, unpackTexts } from './packed-text'
