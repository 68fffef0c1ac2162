// For each incoming document: does its id exist (in which space, with which content hash), and which
// document in $space already holds the same content hash (an exact repeat)?
UNWIND $rows AS row
OPTIONAL MATCH (byid:Episodic {id: row.id})
OPTIONAL MATCH (same:Episodic {content_hash: row.hash})
  WHERE same.space = $space AND same.kind = 'document'
WITH row, byid, min(same.id) AS same_id
RETURN row.i AS i, byid.space AS id_space, byid.content_hash AS id_hash, same_id
