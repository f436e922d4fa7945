import { importWithRetry } from '@/lib/retry-import'

describe('importWithRetry (3 retries, 100 ms apart)', () => {
  afterEach(() => jest.restoreAllMocks())

  it('answers the module once a retry succeeds', async () => {
    const load = jest
      .fn<Promise<string>, []>()
      .mockRejectedValueOnce(new Error('Failed to fetch dynamically imported module'))
      .mockRejectedValueOnce(new Error('again'))
      .mockResolvedValue('module')
    await expect(importWithRetry(load, 3, 1)).resolves.toBe('module')
    expect(load).toHaveBeenCalledTimes(3)
  })

  it('gives up after the first try and 3 retries, logging that the maximum was reached', async () => {
    jest.spyOn(console, 'error').mockImplementation(() => {})
    const load = jest.fn<Promise<string>, []>().mockRejectedValue(new Error('offline'))
    await expect(importWithRetry(load, 3, 1)).rejects.toThrow('offline')
    expect(load).toHaveBeenCalledTimes(4)
    expect(console.error).toHaveBeenCalledWith(
      'Maximum attempts reached loading a page',
      expect.any(Error),
    )
  })
})
