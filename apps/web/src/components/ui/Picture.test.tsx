import { fireEvent, render } from '@testing-library/react'
import { Picture } from '@/components/ui/Picture'
import { setAppConfigForTests } from '@/config/env'
import { DEFAULT_PROFILE_PICTURE, GRID_CARD_SIZES, NO_IMAGE } from '@/lib/images'

const BUCKET = 'https://pictures.test/public'
const JPEG = 'jobImages/owner1/3f2b8a1e.jpg'
const at = (key: string) => `${BUCKET}/${key}`

const markupOf = (container: HTMLElement) => {
  const img = container.querySelector('img')!
  const source = container.querySelector('source')
  return {
    wrapped: img.parentElement?.tagName === 'PICTURE',
    source: source && {
      type: source.getAttribute('type'),
      srcset: source.getAttribute('srcset'),
      sizes: source.getAttribute('sizes'),
    },
    img: {
      src: img.getAttribute('src'),
      srcset: img.getAttribute('srcset'),
      sizes: img.getAttribute('sizes'),
    },
  }
}

describe('Picture', () => {
  beforeEach(() => setAppConfigForTests({ publicBucketUrl: BUCKET }))
  afterEach(() => setAppConfigForTests({ publicBucketUrl: '' }))

  it('offers a JPEG card its WebP sizes, JPEG ones as the fallback, never the original', () => {
    const { container } = render(
      <Picture
        className="post-card-image"
        picture={JPEG}
        use="card"
        sizes={GRID_CARD_SIZES}
        alt=""
        width={400}
        height={300}
        loading="lazy"
        decoding="async"
      />,
    )
    expect(markupOf(container)).toEqual({
      wrapped: true,
      source: {
        type: 'image/webp',
        srcset: `${at('jobImages/owner1/3f2b8a1e.w480.webp')} 480w, ${at('jobImages/owner1/3f2b8a1e.w960.webp')} 960w`,
        sizes: GRID_CARD_SIZES,
      },
      img: {
        src: at('jobImages/owner1/3f2b8a1e.w480.jpg'),
        srcset: `${at('jobImages/owner1/3f2b8a1e.w480.jpg')} 480w, ${at('jobImages/owner1/3f2b8a1e.w960.jpg')} 960w`,
        sizes: GRID_CARD_SIZES,
      },
    })
    // The box's own attributes stay on the img: no layout shift, lazy and async as before.
    const img = container.querySelector('img')!
    expect(img).toHaveClass('post-card-image')
    expect(img).toHaveAttribute('width', '400')
    expect(img).toHaveAttribute('height', '300')
    expect(img).toHaveAttribute('loading', 'lazy')
    expect(img).toHaveAttribute('decoding', 'async')
    expect(img).toHaveAttribute('alt', '')
  })

  it('lists a PNG details view up to w1280, with PNG as the fallback and w960 as the default', () => {
    const { container } = render(
      <Picture picture="userImages/u1/a1.png" use="details" sizes="772px" alt="A sofa" />,
    )
    expect(markupOf(container)).toEqual({
      wrapped: true,
      source: {
        type: 'image/webp',
        srcset: [480, 960, 1280]
          .map((w) => `${at(`userImages/u1/a1.w${w}.webp`)} ${w}w`)
          .join(', '),
        sizes: '772px',
      },
      img: {
        src: at('userImages/u1/a1.w960.png'),
        srcset: [480, 960, 1280].map((w) => `${at(`userImages/u1/a1.w${w}.png`)} ${w}w`).join(', '),
        sizes: '772px',
      },
    })
  })

  it('gives a WebP original no second format: the img lists the WebP sizes itself', () => {
    const { container } = render(
      <Picture picture="userImages/u1/me.webp" use="avatar" sizes="40px" alt="" />,
    )
    expect(markupOf(container)).toEqual({
      wrapped: true,
      source: null,
      img: {
        src: at('userImages/u1/me.avatar.webp'),
        srcset: `${at('userImages/u1/me.avatar.webp')} 160w, ${at('userImages/u1/me.w480.webp')} 480w`,
        sizes: '40px',
      },
    })
  })

  it('gives a GIF PNG variants as its fallback (a variant is one frame)', () => {
    const { container } = render(
      <Picture picture="userImages/u1/me.gif" use="avatar" sizes="96px" alt="" />,
    )
    expect(markupOf(container).img.src).toBe(at('userImages/u1/me.avatar.png'))
    expect(markupOf(container).source?.srcset).toContain('me.avatar.webp 160w')
  })

  it('falls back to the original when the variant fails, then to the placeholder', () => {
    const { container } = render(
      <Picture
        className="post-card-image"
        picture={JPEG}
        use="card"
        sizes={GRID_CARD_SIZES}
        placeholder={DEFAULT_PROFILE_PICTURE}
        alt=""
        width={400}
        height={300}
      />,
    )
    // The variant is not made yet, or its job failed: the original, as a plain img.
    fireEvent.error(container.querySelector('img')!)
    expect(markupOf(container)).toEqual({
      wrapped: false,
      source: null,
      img: { src: at(JPEG), srcset: null, sizes: null },
    })
    expect(container.querySelector('img')).toHaveClass('post-card-image')
    expect(container.querySelector('img')).toHaveAttribute('width', '400')

    fireEvent.error(container.querySelector('img')!)
    expect(markupOf(container).img.src).toBe(DEFAULT_PROFILE_PICTURE)
    // The placeholder is the end: another error changes nothing.
    fireEvent.error(container.querySelector('img')!)
    expect(markupOf(container).img.src).toBe(DEFAULT_PROFILE_PICTURE)
  })

  it('tries the variants again for another picture', () => {
    const { container, rerender } = render(
      <Picture picture={JPEG} use="card" sizes="160px" alt="" />,
    )
    fireEvent.error(container.querySelector('img')!)
    expect(markupOf(container).img.src).toBe(at(JPEG))
    rerender(<Picture picture="jobImages/owner1/other.png" use="card" sizes="160px" alt="" />)
    expect(markupOf(container).img.src).toBe(at('jobImages/owner1/other.w480.png'))
  })

  it('renders anything but an upload key as a plain img, as before', () => {
    const cases: Array<[string | null, string]> = [
      [null, NO_IMAGE],
      ['/images/default-profile.svg', '/images/default-profile.svg'],
      ['images/logo.png', '/images/logo.png'],
      ['https://cdn.example.test/a.jpg', 'https://cdn.example.test/a.jpg'],
      ['blob:http://localhost/4f1c', 'blob:http://localhost/4f1c'],
    ]
    for (const [picture, src] of cases) {
      const { container, unmount } = render(
        <Picture picture={picture} use="card" sizes="160px" alt="" className="box" />,
      )
      expect(markupOf(container)).toEqual({
        wrapped: false,
        source: null,
        img: { src, srcset: null, sizes: null },
      })
      expect(container.querySelector('img')).toHaveClass('box')
      fireEvent.error(container.querySelector('img')!)
      expect(markupOf(container).img.src).toBe(src)
      unmount()
    }
  })

  it('uses the placeholder given for no picture', () => {
    const { container } = render(
      <Picture
        picture={undefined}
        placeholder={DEFAULT_PROFILE_PICTURE}
        use="avatar"
        sizes="48px"
        alt=""
      />,
    )
    expect(container.querySelector('img')).toHaveAttribute('src', DEFAULT_PROFILE_PICTURE)
  })
})
