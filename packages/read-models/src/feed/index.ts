export { feedOrder, type FeedItem } from './feed-order'
export { createOrderedApply } from './ordered-apply'
export {
  ColumnarFeed,
  type ColumnarSchema,
  type ColumnarQuery,
  type FeedPosition,
  type FeedRow,
  type HiddenRows,
  type NearQuery,
  NO_POINT,
  type SlotPage,
} from './columnar-feed'
export { packTexts, unpackTexts } from './packed-text'
