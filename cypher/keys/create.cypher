// A new API key; no row when the key id is taken (the caller mints another id). The api_key_id uniqueness
// constraint makes two concurrent creates of one id fail rather than both land.
OPTIONAL MATCH (taken:ApiKey {key_id: $key_id})
WITH taken WHERE taken IS NULL
CREATE (k:ApiKey {key_id: $key_id, sha256: $sha256, scopes: $scopes, spaces: $spaces, name: $key_name,
                  created_at: datetime($created_at)})
RETURN k.key_id AS key_id
