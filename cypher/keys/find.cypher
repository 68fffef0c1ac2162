// The API key with this key id, if any (one read through the api_key_id uniqueness constraint's index).
// Key nodes carry no `space`: no tenant query matches them.
MATCH (k:ApiKey {key_id: $key_id})
RETURN k.key_id AS key_id, k.sha256 AS sha256, k.scopes AS scopes, k.spaces AS spaces, k.name AS name,
       toString(k.created_at) AS created_at, toString(k.revoked_at) AS revoked_at
