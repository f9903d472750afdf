import { derivedId } from '../db/index.js';
import { ValidationError } from '../errors.js';
import { cleanText } from '../text/index.js';

/** A fixed base for the ids of events a client names itself (`eventId`): the same event, the same id. */
const CLIENT_EVENT_BASE = '5d2f7a90-3c4e-4b1a-9e6d-c11e4e7e0001';
export const MAX_EVENT_ID_CHARS = 256;

/**
 * The stored id of an event the client named (a hook's journal entry): the same (namespace,
 * scope, eventId) always gives the same id, so an event sent again after a lost answer finds
 * itself among what it already wrote and changes nothing.
 */
export function clientEventId(namespace: string, scope: string, eventId: string): string {
  const id = cleanText(eventId).trim();
  if (!id || id.length > MAX_EVENT_ID_CHARS)
    throw new ValidationError(`eventId must be 1–${MAX_EVENT_ID_CHARS} characters`, { field: 'eventId' });
  return derivedId(CLIENT_EVENT_BASE, JSON.stringify([namespace, scope, id]));
}
