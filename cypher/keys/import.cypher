// Import key-file records: a key id not in the database is created as recorded; one already there with the
// same digest takes the file's revocation (never an un-revocation); one there with another digest is left
// alone and reported as a conflict. One row per record (key ids distinct): what happened to it.
UNWIND $keys AS rec
OPTIONAL MATCH (held:ApiKey {key_id: rec.key_id})
WITH rec, held,
     CASE WHEN held IS NULL THEN 'imported'
          WHEN held.sha256 <> rec.sha256 THEN 'conflict'
          WHEN held.revoked_at IS NULL AND rec.revoked_at IS NOT NULL THEN 'revoked'
          ELSE 'present' END AS outcome
FOREACH (_ IN CASE WHEN outcome = 'imported' THEN [1] ELSE [] END |
  CREATE (:ApiKey {key_id: rec.key_id, sha256: rec.sha256, scopes: rec.scopes, spaces: rec.spaces, name: rec.name,
                   created_at: datetime(rec.created_at), revoked_at: datetime(rec.revoked_at)}))
FOREACH (_ IN CASE WHEN outcome = 'revoked' THEN [1] ELSE [] END |
  SET held.revoked_at = datetime(rec.revoked_at))
RETURN rec.key_id AS key_id, outcome
