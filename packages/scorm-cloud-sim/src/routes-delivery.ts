/**
 * Delivery endpoints (docs/scorm-cloud-api.md §6.1): learner data hashing per destination and per
 * dispatch, registration instancing for a destination's dispatches, and the LTI 1.1 / 1.3 data
 * of a dispatch and a destination, in the official clients' shapes (EnabledSchema,
 * DispatchLtiInfoSchema, DispatchLti13InfoSchema, Lti13ToolConfigurationSchema).
 */
import { createHash } from 'node:crypto'
import { enabledOf, noContent, ok } from './http-util'
import { destinationIdx, dispatchIdx, dispatchOf } from './route-params'
import type { Route } from './router'

const enc = encodeURIComponent

/** A stable secret per dispatch, so repeated reads agree (derived from the seed and the id). */
const secretOf = (seed: number, id: string) =>
  createHash('sha256').update(`${seed}:lti:${id}`).digest('base64url').slice(0, 32)

export const deliveryRoutes: Route[] = [
  {
    method: 'GET',
    pattern: '/dispatch/destinations/{destinationId}/dispatches/hashUserInfo',
    handler: (rc) => ok({ enabled: rc.sim.store.catalog.destination(destinationIdx(rc)).hashUserInfo ?? false }),
  },
  {
    method: 'PUT',
    pattern: '/dispatch/destinations/{destinationId}/dispatches/hashUserInfo',
    handler: (rc) => {
      const idx = destinationIdx(rc)
      const enabled = enabledOf(rc.body)
      const { catalog } = rc.sim.store
      catalog.upsertDestination(catalog.destination(idx).id, { hashUserInfo: enabled })
      return noContent()
    },
  },
  {
    method: 'POST',
    pattern: '/dispatch/destinations/{destinationId}/dispatches/registrationInstancing',
    handler: (rc) => {
      const idx = destinationIdx(rc)
      const enabled = enabledOf(rc.body)
      const { store } = rc.sim
      for (const d of store.catalog.dispatches())
        if (d.destinationIdx === idx && d.instanced !== enabled) store.changeDispatch(d.idx, { instanced: enabled })
      return noContent()
    },
  },
  {
    method: 'GET',
    pattern: '/dispatch/destinations/{destinationId}/lti13',
    handler: (rc) => {
      const id = rc.sim.store.catalog.destination(destinationIdx(rc)).id
      const base = `${rc.origin}/lti13`
      return ok({
        publicKey: `-----BEGIN PUBLIC KEY-----\nSIMULATED-${secretOf(rc.sim.options.seed, `key:${id}`)}\n-----END PUBLIC KEY-----`,
        oidcLoginInitiationsUrl: `${base}/login/${enc(id)}`,
        redirectUri: `${base}/launch/${enc(id)}`,
        jsonWebKeySetUrl: `${base}/jwks/${enc(id)}`,
      })
    },
  },
  {
    method: 'GET',
    pattern: '/dispatch/dispatches/{dispatchId}/hashUserInfo',
    handler: (rc) => {
      const { catalog } = rc.sim.store
      const d = catalog.dispatch(dispatchIdx(rc))
      return ok({ enabled: d.hashUserInfo ?? catalog.destination(d.destinationIdx).hashUserInfo ?? false })
    },
  },
  {
    method: 'PUT',
    pattern: '/dispatch/dispatches/{dispatchId}/hashUserInfo',
    handler: (rc) => {
      const idx = dispatchIdx(rc)
      rc.sim.store.catalog.updateDispatch(idx, { hashUserInfo: enabledOf(rc.body) })
      return noContent()
    },
  },
  {
    method: 'GET',
    pattern: '/dispatch/dispatches/{dispatchId}/lti',
    handler: (rc) => {
      const d = dispatchOf(rc)
      return ok({
        url: `${rc.origin}/lti/launch/${enc(d.id)}`,
        consumerKey: `sim-${d.id}`,
        sharedSecret: secretOf(rc.sim.options.seed, d.id),
      })
    },
  },
  {
    method: 'GET',
    pattern: '/dispatch/dispatches/{dispatchId}/lti13',
    handler: (rc) => {
      const d = dispatchOf(rc)
      return ok({ targetLinkUri: `${rc.origin}/lti13/dispatch/${enc(d.id)}` })
    },
  },
]
