// Other names of an entity (Entity.aliases: what the text called it, "Kestrel, the billing
// service" → "billing service", and merged entities' names): entity(name:) and recall resolve them here,
// confined to one namespace by its token like the other full-text indexes.
CREATE FULLTEXT INDEX entity_alias IF NOT EXISTS
FOR (n:Entity) ON EACH [n.aliases, n.namespaceToken]
OPTIONS { indexConfig: { `fulltext.analyzer`: 'standard-no-stop-words' } };
