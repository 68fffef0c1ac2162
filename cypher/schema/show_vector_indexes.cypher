// The vector indexes with their label and dimension, to check them against the embedder.
SHOW VECTOR INDEXES YIELD name, labelsOrTypes, properties, options, state
RETURN name, labelsOrTypes[0] AS label, properties[0] AS property,
       options.indexConfig.`vector.dimensions` AS dimensions, state
