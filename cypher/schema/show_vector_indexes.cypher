// The vector indexes with their label, dimension and quantization, to check them against the settings.
SHOW VECTOR INDEXES YIELD name, labelsOrTypes, properties, options, state
RETURN name, labelsOrTypes[0] AS label, properties[0] AS property,
       options.indexConfig.`vector.dimensions` AS dimensions,
       options.indexConfig.`vector.quantization.type` AS quantization, state
