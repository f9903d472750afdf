// Supersession chains of an entity: its aspects' attributes, active and superseded, with the
// SUPERSEDES links (newer → older) and the memory each attribute came FROM; then the same as a
// table, oldest first. Superseded attributes keep validTo; active ones have none.
//
// :param namespace => 'demo'
// :param entity => 'Redis'
// :param aspect => null          (or an aspect name such as 'decisions' to follow only that one)
MATCH (e:Entity {namespace: $namespace, canonicalName: toLower(trim($entity))})-[:HAS_ASPECT]->(a:Aspect)
WHERE $aspect IS NULL OR a.canonicalName = toLower(trim($aspect))
MATCH has = (a)-[:HAS_ATTRIBUTE]->(attr:Attribute)
RETURN e, has,
  COLLECT { MATCH p = (attr)-[:SUPERSEDES]->(:Attribute) RETURN p } AS supersedes,
  COLLECT { MATCH p = (attr)-[:FROM]->(:Memory) RETURN p } AS sources;

MATCH (e:Entity {namespace: $namespace, canonicalName: toLower(trim($entity))})-[:HAS_ASPECT]->(a:Aspect)-[:HAS_ATTRIBUTE]->(attr:Attribute)
WHERE $aspect IS NULL OR a.canonicalName = toLower(trim($aspect))
OPTIONAL MATCH (attr)-[:SUPERSEDES]->(older:Attribute)
RETURN a.name AS aspect, attr.content AS attribute, attr.kind AS kind, attr.status AS status,
       attr.validFrom AS validFrom, attr.validTo AS validTo, collect(older.content) AS supersedes
ORDER BY aspect, validFrom;
