// Namespace overview: what a namespace holds, then its most mentioned entities as a graph
// (the entities, the RELATES_TO links between them and the latest memories mentioning each).
// Not sure which namespaces exist? Run: MATCH (m:Memory) RETURN m.namespace AS namespace, count(*) AS memories
//
// :param namespace => 'demo'
CALL {
  MATCH (n:Memory {namespace: $namespace}) RETURN 'Memory' AS label, count(n) AS nodes
  UNION ALL MATCH (n:Chunk {namespace: $namespace}) RETURN 'Chunk' AS label, count(n) AS nodes
  UNION ALL MATCH (n:Entity {namespace: $namespace}) RETURN 'Entity' AS label, count(n) AS nodes
  UNION ALL MATCH (n:Aspect {namespace: $namespace}) RETURN 'Aspect' AS label, count(n) AS nodes
  UNION ALL MATCH (n:Attribute {namespace: $namespace}) RETURN 'Attribute' AS label, count(n) AS nodes
  UNION ALL MATCH (n:Hint {namespace: $namespace}) RETURN 'Hint' AS label, count(n) AS nodes
  UNION ALL MATCH (n:Job {namespace: $namespace}) RETURN 'Job (' + n.status + ')' AS label, count(n) AS nodes
  UNION ALL MATCH (n:HistoryEvent {namespace: $namespace}) RETURN 'HistoryEvent' AS label, count(n) AS nodes
}
RETURN label, nodes
ORDER BY label;

MATCH (e:Entity {namespace: $namespace})
WITH e ORDER BY e.mentions DESC LIMIT 15
WITH collect(e) AS top
UNWIND top AS e
RETURN e,
  COLLECT { MATCH p = (e)-[:RELATES_TO]->(other:Entity) WHERE other IN top RETURN p } AS relations,
  COLLECT { MATCH p = (m:Memory)-[:MENTIONS]->(e) WHERE m.deletedAt IS NULL RETURN p ORDER BY m.createdAt DESC LIMIT 3 } AS mentions;
