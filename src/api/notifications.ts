/**
 * Message subscription (JumpServer's notifications API as lina 3.2.2 calls it): the delivery channels and, per
 * system message, its receivers and channels.
 */
import { request, silent } from './client.ts'

export const BACKENDS_URL = '/api/v1/notifications/backends/'
export const SUBSCRIPTIONS_URL = '/api/v1/notifications/system-msg-subscription/'

export interface MsgBackend { name: string; name_display: string }
export interface Receiver { id: string; name: string }
export interface Subscription {
  message_type: string
  message_type_label: string
  users: string[]
  groups: string[]
  receive_backends: string[]
  receivers: Receiver[]
}
export interface SubscriptionCategory { category: string; category_label: string; children: Subscription[] }

export async function fetchMsgBackends(signal?: AbortSignal): Promise<MsgBackend[]> {
  const rows = await request<unknown>('get', BACKENDS_URL, { signal })
  return Array.isArray(rows) ? (rows as MsgBackend[]) : []
}

export async function fetchSubscriptions(signal?: AbortSignal): Promise<SubscriptionCategory[]> {
  const rows = await request<unknown>('get', SUBSCRIPTIONS_URL, { signal })
  return Array.isArray(rows) ? (rows as SubscriptionCategory[]) : []
}

/** Saves receivers and/or channels of one message type; answers the saved subscription. */
export async function updateSubscription(type: string, patch: Partial<Pick<Subscription, 'users' | 'groups' | 'receive_backends'>>): Promise<Subscription> {
  return request<Subscription>('patch', `${SUBSCRIPTIONS_URL}${encodeURIComponent(type)}/`, silent({ json: patch }))
}
