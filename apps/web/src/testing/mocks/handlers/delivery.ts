import {
  INSTANCING_EXPLANATION,
  type CompanyDelivery,
  type DispatchDelivery,
  type DispatchLti,
  type LicenceCount,
} from '@portal/shared'
import { getById } from '../fixture'

/** Delivery settings, LTI data and licence counts: a company and dispatch with nothing set. */
export const deliveryHandlers = [
  getById<CompanyDelivery>('*/api/companies/:id/delivery', (id) => ({
    companyId: id,
    launchAuth: null,
    instancing: 'on',
    instancedDispatches: 1,
    dispatches: 1,
    hashUserInfo: false,
    cssUrl: null,
    instancingExplanation: INSTANCING_EXPLANATION,
  })),
  getById<DispatchDelivery>('*/api/dispatches/:id/delivery', (id) => ({
    dispatchId: id,
    companyId: 'company-1',
    instanced: true,
    hashUserInfo: false,
    cssUrl: null,
    effectiveCssUrl: null,
    companyLaunchAuth: null,
    instancingExplanation: INSTANCING_EXPLANATION,
  })),
  getById<LicenceCount>('*/api/dispatches/:id/licence-count', (id) => ({
    dispatchId: id,
    registrations: 0,
    learners: 0,
    repeatLearners: 0,
    extraRegistrations: 0,
    learnersShown: [],
  })),
  getById<DispatchLti>('*/api/dispatches/:id/lti', (id) => ({
    dispatchId: id,
    lti11: {
      launchUrl: `https://cloud.example/lti/${id}`,
      consumerKey: `key-${id}`,
      canRevealSecret: false,
    },
    lti13: {
      targetLinkUri: `https://cloud.example/lti13/${id}`,
      oidcLoginInitiationsUrl: 'https://cloud.example/lti13/login',
      redirectUri: 'https://cloud.example/lti13/launch',
      jsonWebKeySetUrl: 'https://cloud.example/lti13/jwks',
      publicKey: 'KEY',
    },
  })),
  getById('*/api/companies/:id/licence-count', (id) => ({
    companyId: id,
    registrations: 12,
    learners: 10,
    repeatLearners: 2,
    extraRegistrations: 2,
  })),
]
