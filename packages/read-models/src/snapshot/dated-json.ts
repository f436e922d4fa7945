/**
 * A document as JSON keeps its dates: each Date becomes `{ $date: <epoch ms> }` and back, at
 * any depth. For snapshots of documents whose every field is kept (the people feed's profiles);
 * a model that stores fewer fields writes its own record (the jobs feed's post-record.ts).
 */
export function toDatedJson(value: unknown): unknown {
  if (value instanceof Date) return { $date: value.getTime() }
  if (Array.isArray(value)) return value.map(toDatedJson)
  if (value !== null && typeof value === 'object') {
    const plain: Record<string, unknown> = {}
    for (const [key, field] of Object.entries(value)) {
      if (field !== undefined) plain[key] = toDatedJson(field)
    }
    return plain
  }
  return value
}

export function fromDatedJson(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(fromDatedJson)
  if (value !== null && typeof value === 'object') {
    const date = (value as { $date?: unknown }).$date
    if (typeof date === 'number' && Object.keys(value).length === 1) return new Date(date)
    const document: Record<string, unknown> = {}
    for (const [key, field] of Object.entries(value)) document[key] = fromDatedJson(field)
    return document
  }
  return value
}
