import { useId, type ReactNode } from 'react'
import { FormField, hintIdOf } from '@/components/ui/FormField'
import { POST_CATEGORIES } from '@marketplace/contracts/marketplace'

/**
 * The post's category: one of the feed's categories, the ones its sidebar
 * lists. A post's own older value outside the list stays shown, as ContactField does.
 */
export function CategoryField({
  value,
  onChange,
  hint,
}: {
  value: string
  onChange: (value: string) => void
  hint?: ReactNode
}) {
  const id = useId()
  const options: string[] = [...POST_CATEGORIES]
  if (value && !options.includes(value)) options.unshift(value)
  return (
    <FormField id={id} label="Category" hint={hint}>
      <select
        id={id}
        value={value}
        aria-describedby={hint ? hintIdOf(id) : undefined}
        onChange={(event) => onChange(event.target.value)}
      >
        {options.map((option) => (
          <option key={option} value={option}>
            {option}
          </option>
        ))}
      </select>
    </FormField>
  )
}
