import { randomBytes } from 'node:crypto'
import pg from 'pg'
import type { TestProject } from 'vitest/node'
import { createDatabase } from '../db/client'
import { installJobSchema } from '../db/job-database'

declare module 'vitest' {
  export interface ProvidedContext {
    pgTemplateDb: string
  }
}

/**
 * Builds one migrated template database for this run; each test file copies it
 * (CREATE DATABASE ... TEMPLATE). The name is unique per run, so two runs on one
 * PostgreSQL server never drop each other's template.
 */
export default async function setup(project: TestProject) {
  const TEMPLATE_DB = `portal_test_template_${randomBytes(4).toString('hex')}`
  project.provide('pgTemplateDb', TEMPLATE_DB)
  const url = process.env.TEST_DATABASE_URL
  if (!url) throw new Error('TEST_DATABASE_URL is required for the server-pg project')
  const admin = new pg.Client({ connectionString: url })
  await admin.connect()
  try {
    await admin.query(`drop database if exists ${TEMPLATE_DB} with (force)`)
    await admin.query(`create database ${TEMPLATE_DB}`)
  } finally {
    await admin.end()
  }
  const target = new URL(url)
  target.pathname = `/${TEMPLATE_DB}`
  const database = await createDatabase({ databaseUrl: target.toString() })
  await installJobSchema(database.jobTarget)
  await database.close()

  return async function teardown() {
    const dropper = new pg.Client({ connectionString: url })
    await dropper.connect()
    try {
      await dropper.query(`drop database if exists ${TEMPLATE_DB} with (force)`)
    } finally {
      await dropper.end()
    }
  }
}
