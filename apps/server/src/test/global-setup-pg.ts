import pg from 'pg'
import { createDatabase } from '../db/client'

export const TEMPLATE_DB = 'portal_test_template'

/** Builds one migrated template database; each test file copies it (CREATE DATABASE ... TEMPLATE). */
export default async function setup() {
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
  await database.close()
}
