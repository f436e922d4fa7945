import { render } from '@testing-library/react'
import type { ComponentType } from 'react'
import { ArrowLeftIcon } from '@/components/icons/ArrowLeftIcon'
import { BanknoteIcon, LeafIcon, LinkIcon, TargetIcon } from '@/components/icons/BenefitIcons'
import { BellIcon } from '@/components/icons/BellIcon'
import { CloseIcon } from '@/components/icons/CloseIcon'
import { EyeIcon } from '@/components/icons/EyeIcon'
import { HeartIcon } from '@/components/icons/HeartIcon'
import type { IconProps } from '@/components/icons/Icon'
import {
  CaretIcon,
  MenuIcon,
  MessagesIcon,
  PeopleIcon,
  PlusIcon,
  PostsIcon,
} from '@/components/icons/NavIcons'
import { StarIcon } from '@/components/icons/StarIcon'
import { TrashIcon } from '@/components/icons/TrashIcon'
import { UndoIcon } from '@/components/icons/UndoIcon'
import { decorativeIcon, isFilled } from '@/test/icons'

const ICONS: Record<string, ComponentType<IconProps>> = {
  ArrowLeftIcon,
  BanknoteIcon,
  BellIcon,
  CaretIcon,
  CloseIcon,
  EyeIcon: (props) => <EyeIcon open {...props} />,
  HeartIcon,
  LeafIcon,
  LinkIcon,
  MenuIcon,
  MessagesIcon,
  PeopleIcon,
  PlusIcon,
  PostsIcon,
  StarIcon,
  TargetIcon,
  TrashIcon,
  UndoIcon,
}

describe('the app’s own icons (components/icons)', () => {
  it.each(Object.entries(ICONS))(
    '%s is a decorative 24x24 SVG in currentColor, sized by its prop',
    (_name, Icon) => {
      const { container } = render(<Icon size={31} className="extra" />)
      const icon = decorativeIcon(container)
      expect(icon).toHaveAttribute('viewBox', '0 0 24 24')
      expect(icon).toHaveAttribute('width', '31')
      expect(icon).toHaveAttribute('height', '31')
      expect(icon).toHaveClass('icon', 'extra')
      expect(icon.querySelector('path, circle, rect')).not.toBeNull()
      expect(icon.textContent).toBe('')
    },
  )

  it('fills the star and the heart when told, and strikes the closed eye through', () => {
    expect(isFilled(decorativeIcon(render(<StarIcon />).container))).toBe(true)
    expect(isFilled(decorativeIcon(render(<StarIcon filled={false} />).container))).toBe(false)
    expect(isFilled(decorativeIcon(render(<HeartIcon />).container))).toBe(false)
    expect(isFilled(decorativeIcon(render(<HeartIcon filled />).container))).toBe(true)
    const open = decorativeIcon(render(<EyeIcon open />).container)
    const closed = decorativeIcon(render(<EyeIcon open={false} />).container)
    expect(closed.querySelectorAll('path').length).toBe(open.querySelectorAll('path').length + 1)
  })
})
