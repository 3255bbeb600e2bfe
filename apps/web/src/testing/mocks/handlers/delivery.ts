import {
  INSTANCING_EXPLANATION,
  type CompanyDelivery,
  type DispatchDelivery,
  type DispatchLti,
  type LicenceCount,
} from '@portal/shared'
import { http, HttpResponse } from 'msw'

/** Delivery settings, LTI data and licence counts: a company and dispatch with nothing set. */
export const deliveryHandlers = [
  http.get<{ id: string }>('*/api/companies/:id/delivery', ({ params }) =>
    HttpResponse.json<CompanyDelivery>({
      companyId: params.id,
      launchAuth: null,
      instancing: 'on',
      instancedDispatches: 1,
      dispatches: 1,
      hashUserInfo: false,
      cssUrl: null,
      instancingExplanation: INSTANCING_EXPLANATION,
    }),
  ),
  http.get<{ id: string }>('*/api/dispatches/:id/delivery', ({ params }) =>
    HttpResponse.json<DispatchDelivery>({
      dispatchId: params.id,
      companyId: 'company-1',
      instanced: true,
      hashUserInfo: false,
      cssUrl: null,
      effectiveCssUrl: null,
      companyLaunchAuth: null,
      instancingExplanation: INSTANCING_EXPLANATION,
    }),
  ),
  http.get<{ id: string }>('*/api/dispatches/:id/licence-count', ({ params }) =>
    HttpResponse.json<LicenceCount>({
      dispatchId: params.id,
      registrations: 0,
      learners: 0,
      repeatLearners: 0,
      extraRegistrations: 0,
      learnersShown: [],
    }),
  ),
  http.get<{ id: string }>('*/api/dispatches/:id/lti', ({ params }) =>
    HttpResponse.json<DispatchLti>({
      dispatchId: params.id,
      lti11: {
        launchUrl: `https://cloud.example/lti/${params.id}`,
        consumerKey: `key-${params.id}`,
        canRevealSecret: false,
      },
      lti13: {
        targetLinkUri: `https://cloud.example/lti13/${params.id}`,
        oidcLoginInitiationsUrl: 'https://cloud.example/lti13/login',
        redirectUri: 'https://cloud.example/lti13/launch',
        jsonWebKeySetUrl: 'https://cloud.example/lti13/jwks',
        publicKey: 'KEY',
      },
    }),
  ),
  http.get<{ id: string }>('*/api/companies/:id/licence-count', ({ params }) =>
    HttpResponse.json({
      companyId: params.id,
      registrations: 12,
      learners: 10,
      repeatLearners: 2,
      extraRegistrations: 2,
    }),
  ),
]
