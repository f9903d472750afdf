// An entity's neighbourhood: the entity, the entities it relates to (one hop, either direction),
// its aspects with their active attributes, and the latest memories that mention it.
// The entity is found by name, matched on its canonical form (lowercase).
//
// :param namespace => 'demo'
// :param entity => 'Redis'
MATCH (e:Entity {namespace: $namespace, canonicalName: toLower(trim($entity))})
RETURN e,
  COLLECT { MATCH p = (e)-[:RELATES_TO]-(:Entity) RETURN p LIMIT 25 } AS relations,
  COLLECT { MATCH p = (e)-[:HAS_ASPECT]->(:Aspect)-[:HAS_ATTRIBUTE]->(:Attribute {status: 'active'}) RETURN p LIMIT 25 } AS facts,
  COLLECT { MATCH p = (m:Memory)-[:MENTIONS]->(e) WHERE m.deletedAt IS NULL RETURN p ORDER BY m.createdAt DESC LIMIT 15 } AS mentions;
