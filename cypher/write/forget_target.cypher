// Whether erasure target exists in $space: $mode 'id' = an Episode or Episodic unit with id $id; 'author' = a
// unit or fact whose author is $author; 'all' = any node of the space. Reads only.
RETURN CASE $mode
  WHEN 'id' THEN EXISTS { MATCH (:Episode {space: $space, id: $id}) }
                 OR EXISTS { MATCH (:Episodic {space: $space, id: $id}) }
  WHEN 'author' THEN EXISTS { MATCH (:Episodic {space: $space, author: $author}) }
                     OR EXISTS { MATCH (:Semantic {space: $space, author: $author}) }
  ELSE EXISTS { MATCH (:Episodic {space: $space}) } OR EXISTS { MATCH (:Semantic {space: $space}) }
       OR EXISTS { MATCH (:Procedural {space: $space}) } OR EXISTS { MATCH (:Episode {space: $space}) }
       OR EXISTS { MATCH (:Tag {space: $space}) } OR EXISTS { MATCH (:Subgoal {space: $space}) }
END AS found
