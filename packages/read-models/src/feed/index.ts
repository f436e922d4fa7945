export { feedOrder, type FeedItem } from './feed-order'
export { createOrderedApply } from './ordered-apply'
export {
  ColumnarFeed,
  type ColumnarSchema,
  type ColumnarQuery,
  type FeedPosition,
  type FeedRow,
  type HiddenRows,
  type SlotPage,
} from './columnar-feed'
export { packTexts, unpackTexts } from './packed-text'
