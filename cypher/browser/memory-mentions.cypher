// What a memory mentions: the memory with the entities it MENTIONS (the mention text and
// confidence are on the relationship), its chunks, the attributes derived FROM it, its audit
// trail (HistoryEvent ABOUT it) and its deep-path jobs (Job FOR it).
// No id at hand? The newest memories of a namespace:
//   MATCH (m:Memory {namespace: $namespace}) RETURN m.id, m.name ORDER BY m.createdAt DESC LIMIT 20
//
// :param memoryId => '00000000-0000-0000-0000-000000000000'
MATCH (m:Memory {id: $memoryId})
RETURN m,
  COLLECT { MATCH p = (m)-[:MENTIONS]->(:Entity) RETURN p } AS mentions,
  COLLECT { MATCH p = (m)-[:HAS_CHUNK]->(:Chunk) RETURN p } AS chunks,
  COLLECT { MATCH p = (:Attribute)-[:FROM]->(m) RETURN p } AS attributes,
  COLLECT { MATCH p = (:HistoryEvent)-[:ABOUT]->(m) RETURN p } AS history,
  COLLECT { MATCH p = (:Job)-[:FOR]->(m) RETURN p } AS jobs;
