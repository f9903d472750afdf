// Keyword legs (Lucene BM25, English analyzer). `namespaceToken` is a single opaque token per
// namespace so a query can be confined to one namespace inside Lucene itself.
CREATE FULLTEXT INDEX memory_content IF NOT EXISTS
FOR (n:Memory) ON EACH [n.content, n.namespaceToken]
OPTIONS { indexConfig: { `fulltext.analyzer`: 'english' } };

CREATE FULLTEXT INDEX entity_name IF NOT EXISTS
FOR (n:Entity) ON EACH [n.name, n.namespaceToken]
OPTIONS { indexConfig: { `fulltext.analyzer`: 'standard-no-stop-words' } };

CREATE FULLTEXT INDEX hint_text IF NOT EXISTS
FOR (n:Hint) ON EACH [n.text, n.namespaceToken]
OPTIONS { indexConfig: { `fulltext.analyzer`: 'english' } };
