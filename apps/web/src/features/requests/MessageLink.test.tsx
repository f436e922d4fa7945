import type { ReactElement } from 'react'
import { screen, within } from '@testing-library/react'
import type {
  ReceivedJobRequest,
  ReceivedPeopleRequest,
  SentJobRequest,
  SentPeopleRequest,
} from '@marketplace/contracts/api'
import { jsonResponse } from '@/test/helpers'
import { renderRequestsPage } from '@/test/requests-helpers'
import ReceivedPeopleRequestsPage from './ReceivedPeopleRequestsPage'
import ReceivedPostRequestsPage from './ReceivedPostRequestsPage'
import SentPeopleRequestsPage from './SentPeopleRequestsPage'
import SentPostRequestsPage from './SentPostRequestsPage'

const at = '2026-01-02T10:00:00.000Z'

const receivedPost: ReceivedJobRequest[] = [
  {
    _id: 'rq1',
    status: 'pending',
    createdAt: at,
    updatedAt: at,
    requester: {
      _id: 'w1',
      name: 'Mia Member',
      profilePicture: null,
      email: 'mia@example.test',
      isWorker: true,
      title: 'Mover',
      skills: [],
    },
    post: {
      _id: 'p1',
      title: 'Move a piano',
      location: 'Springfield',
      salary: '$80',
      picture: null,
      status: 'online',
    },
  },
]

const sentPost: SentJobRequest[] = [
  {
    _id: 'rq2',
    status: 'accepted',
    createdAt: at,
    post: {
      _id: 'p2',
      title: 'Paint a fence',
      location: null,
      salary: '$80',
      jobPicture: null,
      displayLocation: false,
      displayContact: false,
      contact: null,
      infos: '',
      owner: { _id: 'o1', name: 'Leo Owner' },
    },
  },
]

const sentPeople: SentPeopleRequest[] = [
  {
    _id: 'rq3',
    status: 'pending',
    createdAt: at,
    updatedAt: at,
    post: { _id: 'p3', title: 'Fix a sink' },
    requestedPerson: { _id: 'w2', name: 'Zoe Helper' },
  },
]

const receivedPeople: ReceivedPeopleRequest[] = [
  {
    _id: 'rq4',
    status: 'rejected',
    createdAt: at,
    updatedAt: at,
    post: { _id: 'p4', title: 'Mow the lawn' },
    requester: { _id: 'o2', name: 'Ana Owner' },
  },
]

const pages: [string, ReactElement, unknown, string, string][] = [
  ['Requests on my posts', <ReceivedPostRequestsPage key="a" />, receivedPost, 'Mia Member', 'rq1'],
  ['Posts I requested', <SentPostRequestsPage key="b" />, sentPost, 'Paint a fence', 'rq2'],
  ['People I requested', <SentPeopleRequestsPage key="c" />, sentPeople, 'Zoe Helper', 'rq3'],
  [
    'People requested me',
    <ReceivedPeopleRequestsPage key="d" />,
    receivedPeople,
    'Ana Owner',
    'rq4',
  ],
]

describe('"Message" on every request row', () => {
  it.each(pages)('%s: opens the request’s conversation', async (_page, page, list, text, id) => {
    renderRequestsPage(page, () => jsonResponse(200, list))
    const row = (await screen.findAllByText(text))[0]!.closest('li') as HTMLElement
    expect(within(row).getByRole('link', { name: 'Message' })).toHaveAttribute(
      'href',
      `/messages/request/${id}`,
    )
  })
})
