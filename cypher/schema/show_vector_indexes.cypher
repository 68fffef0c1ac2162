// The vector indexes with their label, dimension, quantization and in-index filter properties (the server lists
// those after the embedding property), to check them against the settings and the schema files.
SHOW VECTOR INDEXES YIELD name, labelsOrTypes, properties, options, state
RETURN name, labelsOrTypes[0] AS label, properties[0] AS property, properties[1..] AS filters,
       options.indexConfig.`vector.dimensions` AS dimensions,
       options.indexConfig.`vector.quantization.type` AS quantization, state
