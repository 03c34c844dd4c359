import { describe, expect, it } from 'vitest'
import { routeFromLocation } from './route.ts'

describe('the web terminal address', () => {
  it('opens a terminal on the token of /luna/connect?token=…', () => {
    expect(routeFromLocation({ pathname: '/luna/connect', search: '?token=5f0c' })).toEqual({ token: '5f0c' })
    expect(routeFromLocation({ pathname: '/luna/connect/', search: '?token=5f0c&inspect' })).toEqual({ token: '5f0c' })
  })

  it('opens the tree only elsewhere, or without a token', () => {
    expect(routeFromLocation({ pathname: '/luna/', search: '?token=5f0c' })).toEqual({})
    expect(routeFromLocation({ pathname: '/luna/connect', search: '' })).toEqual({})
    expect(routeFromLocation({ pathname: '/luna/connect', search: '?token=%20' })).toEqual({})
  })

  it('joins a shared session at /luna/share/<id>/', () => {
    expect(routeFromLocation({ pathname: '/luna/share/6A2B1C3D-0000-4000-8000-000000000001/', search: '' })).toEqual({ share: '6a2b1c3d-0000-4000-8000-000000000001' })
    expect(routeFromLocation({ pathname: '/luna/share/6a2b1c3d-0000-4000-8000-000000000001', search: '' })).toEqual({ share: '6a2b1c3d-0000-4000-8000-000000000001' })
    expect(routeFromLocation({ pathname: '/luna/share/nope/', search: '' })).toEqual({})
  })

  it('monitors a session at /luna/monitor/<id>/', () => {
    expect(routeFromLocation({ pathname: '/luna/monitor/6a2b1c3d-0000-4000-8000-000000000001/', search: '' })).toEqual({ monitor: '6a2b1c3d-0000-4000-8000-000000000001' })
    expect(routeFromLocation({ pathname: '/luna/monitor/x/', search: '' })).toEqual({})
  })
})
