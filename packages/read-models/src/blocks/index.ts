export {
  createBlockSets,
  BLOCK_SETS_COLLECTION,
  type BlockSets,
  type BlockSetDocument,
} from './block-sets'
