/**
 * Every MCP tool, one file each (its arguments, description and call into src/api), in the
 * order tools/list names them: memories (remember … forget, progressive disclosure in between),
 * the entity graph, sessions, then a namespace's export and import.
 */
import type { McpTool } from '../tool.js';
import addObservations from './add-observations.js';
import createEntities from './create-entities.js';
import createRelations from './create-relations.js';
import exportNamespace from './export-namespace.js';
import forget from './forget.js';
import getEntity from './get-entity.js';
import getMemories from './get-memories.js';
import importNamespace from './import-namespace.js';
import recall from './recall.js';
import remember from './remember.js';
import rememberBatch from './remember-batch.js';
import search from './search.js';
import searchEntities from './search-entities.js';
import sessionEnd from './session-end.js';
import sessionPrompt from './session-prompt.js';
import sessionRecover from './session-recover.js';
import sessionStart from './session-start.js';
import sessionStatus from './session-status.js';
import sessionToolResult from './session-tool-result.js';
import timeline from './timeline.js';

export const TOOLS: readonly McpTool[] = [
  remember,
  rememberBatch,
  recall,
  search,
  timeline,
  getMemories,
  forget,
  getEntity,
  searchEntities,
  createEntities,
  createRelations,
  addObservations,
  sessionStart,
  sessionPrompt,
  sessionToolResult,
  sessionRecover,
  sessionEnd,
  sessionStatus,
  exportNamespace,
  importNamespace,
];
