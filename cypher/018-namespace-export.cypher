// Namespace export (exportNamespace): every kind a namespace holds is read in pages by
// (namespace, id), each page an index seek in id order from the last page's cursor, so a page
// costs the same at the start of a namespace as at its end, whatever the other tenants hold.
CREATE INDEX memory_namespace_id IF NOT EXISTS FOR (n:Memory) ON (n.namespace, n.id);
CREATE INDEX chunk_namespace_id IF NOT EXISTS FOR (n:Chunk) ON (n.namespace, n.id);
CREATE INDEX entity_namespace_id IF NOT EXISTS FOR (n:Entity) ON (n.namespace, n.id);
CREATE INDEX aspect_namespace_id IF NOT EXISTS FOR (n:Aspect) ON (n.namespace, n.id);
CREATE INDEX attribute_namespace_id IF NOT EXISTS FOR (n:Attribute) ON (n.namespace, n.id);
CREATE INDEX hint_namespace_id IF NOT EXISTS FOR (n:Hint) ON (n.namespace, n.id);
CREATE INDEX history_namespace_id IF NOT EXISTS FOR (n:HistoryEvent) ON (n.namespace, n.id);
CREATE INDEX document_namespace_id IF NOT EXISTS FOR (n:Document) ON (n.namespace, n.id);
CREATE INDEX session_namespace_id IF NOT EXISTS FOR (n:Session) ON (n.namespace, n.id);
CREATE INDEX checkpoint_namespace_id IF NOT EXISTS FOR (n:Checkpoint) ON (n.namespace, n.id);
CREATE INDEX transcript_namespace_id IF NOT EXISTS FOR (n:Transcript) ON (n.namespace, n.id);
