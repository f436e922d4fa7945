/** The form of an id the services hand out (ObjectId hex); anything else names nothing. */
export const isObjectIdHex = (value: unknown): value is string =>
  typeof value === 'string' && /^[0-9a-f]{24}$/.test(value)
