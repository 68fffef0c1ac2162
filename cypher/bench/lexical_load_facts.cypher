// Lexical benchmark: $count Semantic facts spread over $spaces spaces named $prefix + i, each text 6-14 words
// (ids from $start) drawn from $words (Zipf-like: low indexes more often), current versions, no embeddings.
UNWIND range($start, $start + $count - 1) AS i
WITH i, $prefix + toString(i % $spaces) AS space,
     [w IN range(1, 6 + toInteger(rand() * 9)) | $words[toInteger(size($words) * rand() * rand())]] AS picked
CREATE (:Semantic {id: 'lex-' + toString(i), space: space, text: reduce(t = '', w IN picked | t + ' ' + w),
                   status: 'active', valid_from: datetime('2024-01-01T00:00:00Z'),
                   valid_to: datetime('9999-12-31T00:00:00Z'), recorded_at: datetime('2024-01-01T00:00:00Z'),
                   expired_at: datetime('9999-12-31T00:00:00Z'), importance: 1.0, credibility: 1.0})
